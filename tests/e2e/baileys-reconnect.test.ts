import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BaileysStack,
  startLinkedStack,
  stopLinked,
  deliveredOnce as storedOnce,
} from '../support/baileys-host.ts';
import { waitFor } from '../support/client.ts';
import {
  addShopAndAsha,
  type Companion,
  type FakeNetwork,
  type FakeUser,
  startFakeNetwork,
} from '../support/fake-network/index.ts';
import type { jsonClient } from '../support/http.ts';
import type { startReceiver } from '../support/webhook-receiver.ts';

/**
 * The reconnect policy (docs/sessions.md) end to end: the real connection host process with the
 * Baileys driver against the fake network edge, the API and consumers in their own process, a
 * webhook receiver. Backoff timers are shortened by configuration; the old policy gave up after
 * RECONNECT_MAX_FAILURES attempts, the new one only counts refused logins.
 */

const MAX_FAILURES = 3;
let stack: BaileysStack;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let device: Companion;
let admin: ReturnType<typeof jsonClient>;
let sessionId: string;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let logins = 0;

type Info = {
  status: string;
  reason: string | null;
  reconnectAttempt: number;
  nextRetryAt: string | null;
  lastDisconnect: { code: number | null; reason: string; at: string } | null;
};
const session = async () => (await admin.get(`/api/sessions/${sessionId}`)).body.session as Info;
const until = (pred: (s: Info) => boolean, what: string, ms = 20_000) =>
  waitFor(
    async () => {
      const s = await session();
      return s && pred(s) ? s : undefined;
    },
    ms,
    what,
  );
const deliveredOnce = (id: string) => storedOnce(admin, hook, sessionId, id);

beforeAll(async () => {
  net = await startFakeNetwork();
  net.on('login', () => logins++);
  ({ me, asha } = addShopAndAsha(net, { me: '919811100077', asha: '14155550177' }));
  ({ hook, stack, admin, sessionId, device } = await startLinkedStack(net, me, {
    prefix: 'br',
    env: {
      RECONNECT_BASE_MS: '600',
      RECONNECT_MAX_DELAY_MS: '1200',
      RECONNECT_MAX_FAILURES: String(MAX_FAILURES),
    },
  }));
}, 90_000);

afterAll(() => stopLinked(stack, net, hook));

describe('Baileys reconnect policy on the fake network', () => {
  it('comes back by itself after a 500 stream error; a text sent meanwhile arrives exactly once', async () => {
    const before = logins;
    net.disconnect(device, 500);
    await waitFor(async () => !device.link, 10_000, 'the link to drop');
    // The first retry waits at least RECONNECT_BASE_MS/2: the network queues this one offline.
    const id = await asha.sendText(me, 'sent while the link was down');
    expect(device.queue.length).toBeGreaterThan(0);

    await waitFor(async () => device.link && device.online, 20_000, 'a new login');
    expect(logins).toBe(before + 1);
    const ready = await until((s) => s.status === 'READY', 'READY again');
    expect(ready.lastDisconnect).toMatchObject({ code: 500, reason: expect.stringContaining('500') });
    expect(ready.reconnectAttempt).toBe(0);
    await deliveredOnce(id);
  }, 60_000);

  it('survives an outage longer than the old retry budget and is READY again when the network is back', async () => {
    net.goDown();
    const reconnecting = await until(
      (s) => s.status === 'RECONNECTING' && s.reconnectAttempt > MAX_FAILURES + 1,
      `more than ${MAX_FAILURES + 1} attempts`,
      30_000,
    );
    expect(reconnecting.nextRetryAt).not.toBeNull();
    expect(reconnecting.reason).toBeTruthy();
    const id = await asha.sendText(me, 'sent during the outage');
    net.restore();

    const ready = await until((s) => s.status === 'READY', 'READY after the outage', 30_000);
    expect(ready.reconnectAttempt).toBe(0);
    expect(ready.nextRetryAt).toBeNull();
    await deliveredOnce(id);
  }, 90_000);

  it('a login refused with 405 again and again ends as FAILED with a clear reason; /reconnect brings it back', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) net.refuseNextLogin(405);
    net.disconnect(device, 428);
    const failed = await until((s) => s.status === 'FAILED', 'FAILED', 30_000);
    expect(failed.reason).toContain(`refused ${MAX_FAILURES} logins in a row`);
    expect(failed.reason).toContain('405');
    expect(failed.reason).toContain('BAILEYS_VERSION');
    expect(failed.lastDisconnect?.code).toBe(405);
    // It stays down: no more logins are tried.
    const tried = logins;
    await new Promise((r) => setTimeout(r, 3000));
    expect(logins).toBe(tried);
    expect(device.link).toBeUndefined();

    const r = await admin.post(`/api/sessions/${sessionId}/reconnect`);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await until((s) => s.status === 'READY', 'READY after /reconnect');
    await waitFor(async () => device.link && device.online, 10_000, 'the device online');
    const id = await asha.sendText(me, 'back after the reconnect');
    await deliveredOnce(id);
  }, 90_000);

  it('a 440 (replaced) is retried; /reconnect on a READY session logs in again at once', async () => {
    net.disconnect(device, 440);
    await waitFor(async () => !device.link, 10_000, 'the link to drop');
    await waitFor(async () => device.link && device.online, 20_000, 'a new login after 440');
    const back = await until((s) => s.status === 'READY', 'READY after 440');
    expect(back.lastDisconnect?.code).toBe(440);

    const before = logins;
    const r = await admin.post(`/api/sessions/${sessionId}/reconnect`);
    expect(r.status).toBe(202);
    await waitFor(async () => logins > before, 10_000, 'a new login from /reconnect');
    const cmd = await waitFor(
      async () => {
        const c = (await admin.get(`/api/commands/${r.body.commandId}`)).body.command;
        return c?.status !== 'pending' ? c : undefined;
      },
      10_000,
      'the reconnect command',
    );
    expect(cmd.status).toBe('succeeded');
    await until((s) => s.status === 'READY', 'READY after /reconnect');
  }, 60_000);

  it('logged out at the phone (401) is final: LOGGED_OUT, no retry, and /reconnect answers 409', async () => {
    net.unlink(device);
    const out = await until((s) => s.status === 'LOGGED_OUT', 'LOGGED_OUT');
    expect(out.reason).toContain('401');
    const tried = logins;
    await new Promise((r) => setTimeout(r, 2000));
    expect(logins).toBe(tried);
    const r = await admin.post(`/api/sessions/${sessionId}/reconnect`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('CONFLICT');
    const unknown = await admin.post('/api/sessions/qr_1_00000000/reconnect');
    expect(unknown.status).toBe(404);
  }, 30_000);
});
