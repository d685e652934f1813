import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { sessionReady, waitFor } from './client.ts';
import {
  addShopAndAsha,
  type Companion,
  type FakeNetwork,
  type FakeUser,
  startFakeNetwork,
} from './fake-network/index.ts';
import { jsonClient } from './http.ts';
import { webhookTo } from './listeners.ts';
import { spawnApi, spawnNode, spawnScript, stopProcess } from './processes.ts';
import { startReceiver } from './webhook-receiver.ts';

type Client = ReturnType<typeof jsonClient>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The real-network path in processes of its own: the API and consumers (with no simulator) on a
 * resource prefix of the test's, and connection host processes with the Baileys driver pointed at
 * the fake network edge, trusting its certificate root (read by the driver under NODE_ENV=test).
 */
export interface BaileysStack {
  /** The environment every process of the stack shares. */
  env: Record<string, string>;
  /** The API process's base URL (e.g. for the tenant stream). */
  baseUrl: string;
  admin: Client;
  /**
   * Starts a connection host process (stopped by `stop`): connection-host/main.ts under tsx, or
   * `node <argv>` in `cwd` (a built bundle).
   */
  startHost(extra?: Record<string, string>, command?: { argv: string[]; cwd: string }): ChildProcess;
  stop(): Promise<void>;
}

export async function startBaileysStack(
  net: FakeNetwork,
  opts: { prefix: string; env?: Record<string, string> },
): Promise<BaileysStack> {
  const env = {
    RESOURCE_PREFIX: `${opts.prefix}${Date.now() % 1_000_000}`,
    SHARD_COUNT: '1',
    MESSAGING_DRIVER: 'baileys',
    BAILEYS_WS_URL: net.url,
    BAILEYS_TEST_ROOT_PUBLIC_KEY: net.rootPublicKey,
    NODE_ENV: 'test',
    SEND_INTERVAL_MS: '0',
    ...opts.env,
  };
  const procs: ChildProcess[] = [];
  const api = await spawnApi({ ...env, SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
  procs.push(api.proc);
  const token = (await jsonClient(api.baseUrl).post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY }))
    .body.token;
  return {
    env,
    baseUrl: api.baseUrl,
    admin: jsonClient(api.baseUrl, token),
    startHost(extra = {}, command) {
      const p = command
        ? spawnNode(command.argv, { ...env, ...extra }, command.cwd)
        : spawnScript('connection-host/main.ts', { ...env, ...extra });
      procs.push(p);
      return p;
    },
    async stop() {
      for (const p of procs) await stopProcess(p);
    },
  };
}

/** The fake network with the shop's account (`me`, whose device a session links) and a contact, Asha. */
export async function shopNetwork(phones: { me: string; asha: string }) {
  const net = await startFakeNetwork();
  return { net, ...addShopAndAsha(net, phones) };
}

/**
 * The start-up of the e2e tests that follow messages through a linked session: a webhook
 * receiver, the stack (private webhook targets allowed) with one host process, the tenant's
 * webhook pointed at the receiver, and `me` linked by QR. Stop it with `stopLinked`.
 */
export async function startLinkedStack(
  net: FakeNetwork,
  me: FakeUser,
  opts: { prefix: string; env?: Record<string, string> },
) {
  const hook = await startReceiver();
  const stack = await startBaileysStack(net, {
    prefix: opts.prefix,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...opts.env },
  });
  const host = stack.startHost();
  await webhookTo(stack.admin, hook);
  const { sessionId, device } = await linkByQr(stack.admin, me);
  return { hook, stack, admin: stack.admin, host, sessionId, device };
}

/** Stops what `startLinkedStack` and `shopNetwork` started (any of them may not have started). */
export async function stopLinked(stack?: BaileysStack, net?: FakeNetwork, hook?: Receiver): Promise<void> {
  await stack?.stop();
  await net?.close();
  await hook?.close();
}

/** Creates a session; answers its id and the first QR the host shows for it. */
export async function sessionWithQr(admin: Client, name: string): Promise<{ sessionId: string; qr: string }> {
  const sessionId: string = (await admin.post('/api/sessions', { name })).body.session.sessionId;
  const qr = await waitFor(
    async () =>
      (await admin.get(`/api/sessions/${sessionId}/qr`, { accept: 'application/json' })).body?.qr as
        | string
        | null,
    20_000,
    'a QR from the host',
  );
  return { sessionId, qr };
}

/** Creates a session and links it by scanning its QR with `phone`'s device; answers once READY. */
export async function linkByQr(
  admin: Client,
  phone: FakeUser,
  name = 'shop',
): Promise<{ sessionId: string; device: Companion; session: Record<string, unknown> }> {
  const { sessionId, qr } = await sessionWithQr(admin, name);
  const device = await phone.scanQr(qr);
  const session = await sessionReady(admin, sessionId, 20_000);
  return { sessionId, device, session };
}

export type HistoryRow = { id: string; text: string; type: string; status: string; reason: string | null };

/** The session's stored messages of one direction, as the history view answers them. */
export const historyOf = async (admin: Client, sessionId: string, type: 'inbound' | 'outbound') =>
  (await admin.get(`/view/messages/v1?sessionId=${sessionId}&type=${type}&limit=500`)).body
    .messages as HistoryRow[];

/** Stored in history and sent to the webhook, each exactly once (checked again after a pause). */
export async function deliveredOnce(admin: Client, hook: Receiver, sessionId: string, id: string) {
  const count = async () => (await historyOf(admin, sessionId, 'inbound')).filter((m) => m.id === id).length;
  await waitFor(async () => (await count()) > 0, 30_000, `inbound ${id} in history`);
  await waitFor(async () => hook.of('message.inbound', id).length > 0, 20_000, `webhook for ${id}`);
  await new Promise((r) => setTimeout(r, 1500));
  expect(await count()).toBe(1);
  expect(hook.of('message.inbound', id)).toHaveLength(1);
}
