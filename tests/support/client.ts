import { expect, inject } from 'vitest';
import { jsonClient } from './http.ts';

export type { ApiResponse } from './http.ts';

export const baseUrl = () => inject('baseUrl');

/** A small JSON client for the running service. */
export function api(token?: string) {
  return jsonClient(baseUrl(), token);
}

/**
 * A message from a customer to a session, injected at the simulated network (`POST /_sim/inbound`);
 * answers its message id.
 */
export async function simInbound(body: Record<string, unknown>): Promise<string> {
  const r = await api().post('/_sim/inbound', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messageId as string;
}

export async function adminToken(): Promise<string> {
  const r = await api().post('/api/auth/token', { apiKey: inject('adminApiKey') });
  if (r.status !== 200) throw new Error(`admin token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

/** A fresh tenant with its own API key, token and portal id: tests never share data. */
export async function newTenant(name = 'test') {
  const admin = await adminToken();
  const created = await api(admin).post('/api/admin/tenants', { name });
  if (created.status !== 201) throw new Error(`tenant: ${created.status} ${JSON.stringify(created.body)}`);
  const tok = await api().post('/api/auth/token', { apiKey: created.body.apiKey });
  return {
    id: created.body.tenant.id as string,
    portalId: created.body.tenant.portal_id as string,
    apiKey: created.body.apiKey as string,
    token: tok.body.token as string,
    api: api(tok.body.token),
  };
}

/** Polls until `fn` returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`, { cause: last });
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until a message is in the tenant's history, i.e. the events consumer has taken up its event.
 * The local service's one events consumer applies events batch by batch, in order: an event produced
 * after this returns is applied after everything this message's event did (its webhook included).
 */
export async function messageStored(client: ReturnType<typeof api>, messageId: string, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const r = await client.get('/view/messages/v1?limit=500');
      return (r.body.messages as Array<{ id: string }> | undefined)?.some((m) => m.id === messageId);
    },
    timeoutMs,
    `message ${messageId} stored`,
  );
}

/** Creates a session with the simulator and waits until it is READY. */
export async function readySession(client: ReturnType<typeof api>, name = 'test') {
  const created = await client.post('/api/sessions', { name });
  if (created.status !== 201)
    throw new Error(`create session: ${created.status} ${JSON.stringify(created.body)}`);
  return sessionReady(client, created.body.session.sessionId as string);
}

/** Waits until the session is READY (through any client: another process's service too); answers it. */
export function sessionReady(client: ReturnType<typeof api>, sessionId: string, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const r = await client.get(`/api/sessions/${sessionId}`);
      return r.body.session?.status === 'READY' ? r.body.session : undefined;
    },
    timeoutMs,
    `session ${sessionId} READY`,
  );
}

/** Waits until the command is no longer pending; answers it (its final status and result). */
export function commandFinished(client: ReturnType<typeof api>, commandId: string, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const r = await client.get(`/api/commands/${commandId}`);
      return r.body.command?.status !== 'pending' ? r.body.command : undefined;
    },
    timeoutMs,
    `command ${commandId}`,
  );
}
