import { expect, inject } from 'vitest';
import { type App, createApp } from '../../functions/api/app.ts';
import { type ApiResponse, jsonClientOver } from './http.ts';

/**
 * The API application in this test worker, called through Hono's `app.request()` (no socket, no
 * server process), with the real repositories on the local emulators the global setup started
 * (tests/support/worker-env.ts points this worker at them). A route test pays for its route only.
 */
let built: Promise<App> | undefined;
export const inProcessApp = () => {
  built ??= createApp();
  return built;
};

export type Caller = ReturnType<typeof caller>;

/** A JSON caller of the in-process application, optionally with a Bearer token. */
export function caller(token?: string) {
  return jsonClientOver(async (path, init) => (await inProcessApp()).request(path, init), token);
}

/** An admin token, from the service's admin API key. */
export async function adminCaller() {
  const r = await caller().post('/api/auth/token', { apiKey: inject('adminApiKey') });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return caller(r.body.token as string);
}

/** A fresh tenant (its own API key and token): route tests never share data. */
export async function tenant(name = 'routes') {
  const admin = await adminCaller();
  const created = await admin.post('/api/admin/tenants', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const tok = await caller().post('/api/auth/token', { apiKey: created.body.apiKey });
  expect(tok.status, JSON.stringify(tok.body)).toBe(200);
  return {
    id: created.body.tenant.id as string,
    portalId: created.body.tenant.portal_id as string,
    apiKey: created.body.apiKey as string,
    token: tok.body.token as string,
    api: caller(tok.body.token as string),
  };
}

export type Tenant = Awaited<ReturnType<typeof tenant>>;

/**
 * Two fresh tenants (`{name}-a`, `{name}-b`) and a session of the first: the set-up of every
 * route test that checks a session's resources stay with their tenant.
 */
export async function twoTenantsAndASession(name: string, sessionName?: string) {
  const [a, b] = await Promise.all([tenant(`${name}-a`), tenant(`${name}-b`)]);
  return { a, b, sessionId: await session(a.api, sessionName) };
}

/** A session of the tenant (created, not waited for: its connection is the host's business). */
export async function session(api: Caller, name = 'routes') {
  const r = await api.post('/api/sessions', { name });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.session.sessionId as string;
}

/** A 400 that names the field: `VALIDATION_FAILED`, its message starting with the field. */
export function expectInvalid(r: ApiResponse, field: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.success).toBe(false);
  expect(r.body.error.code).toMatch(/^(VALIDATION_FAILED|MALFORMED_JSON)$/);
  expect(r.body.error.message).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}\\b`));
}

/** A 404 in the error shape (another tenant's resource looks like none at all). */
export function expectNotFound(r: ApiResponse) {
  expect(r.status, JSON.stringify(r.body)).toBe(404);
  expect(r.body.success).toBe(false);
  expect(r.body.error.code).toMatch(/NOT_FOUND$/);
}
