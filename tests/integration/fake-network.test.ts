import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ConnectionState,
  makeWASocket,
  proto,
  useMultiFileAuthState,
  type WAMessage,
  type WAMessageUpdate,
  type WASocket,
} from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger } from '#shared/log/logger';
import {
  addShopAndAsha,
  type Companion,
  type FakeNetwork,
  type FakeUser,
  startFakeNetwork,
} from '../support/fake-network/index.ts';

/**
 * The fake network on its own, driven by a plain Baileys socket (no product code): the situations
 * it can produce for the driver, shown as Baileys sees them.
 */

let net: FakeNetwork;
let untrust: () => void;
let dir: string;
let me: FakeUser;
let asha: FakeUser;
const quiet = logger.child({}, { level: 'silent' });
/** expect.poll with room for a loaded machine (its default gives up after 1 s). */
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 10_000 });

beforeAll(async () => {
  net = await startFakeNetwork();
  untrust = net.trustInThisProcess();
  dir = await mkdtemp(join(tmpdir(), 'fake-network-'));
  ({ me, asha } = addShopAndAsha(net, { me: '919800000001', asha: '14155550111' }));
});

afterAll(async () => {
  untrust?.();
  await net?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A plain socket on a file auth state, recording what it reports. */
async function client() {
  const { state, saveCreds } = await useMultiFileAuthState(dir);
  const sock: WASocket = makeWASocket({
    auth: state,
    logger: quiet,
    waWebSocketUrl: net.url,
    markOnlineOnConnect: false,
    syncFullHistory: false,
  });
  const seen = {
    updates: [] as Partial<ConnectionState>[],
    upserts: [] as Array<{ type: string; messages: WAMessage[] }>,
    messageUpdates: [] as WAMessageUpdate[],
  };
  sock.ev.on('creds.update', saveCreds);
  sock.ev.on('connection.update', (u) => seen.updates.push(u));
  sock.ev.on('messages.upsert', (u) => seen.upserts.push(u));
  sock.ev.on('messages.update', (u) => seen.messageUpdates.push(...u));
  const closeStatus = () =>
    (
      seen.updates.find((u) => u.connection === 'close')?.lastDisconnect?.error as {
        output?: { statusCode?: number };
      }
    )?.output?.statusCode;
  const opened = () => seen.updates.some((u) => u.connection === 'open');
  return { sock, seen, closeStatus, opened };
}

describe('the fake network, seen by a plain Baileys socket', () => {
  let device: Companion;
  let c: Awaited<ReturnType<typeof client>>;

  it('links by QR and logs in with the saved creds', async () => {
    const linking = await client();
    await poll(() => linking.seen.updates.find((u) => u.qr)).toBeDefined();
    device = await me.scanQr(linking.seen.updates.find((u) => u.qr)?.qr ?? '');
    await poll(linking.closeStatus).toBe(515);
    c = await client();
    await poll(c.opened).toBe(true);
    // The phone's initial history sync has been processed: later logins do not wait for one.
    await poll(() => c.sock.authState.creds.accountSyncCounter).toBeGreaterThan(0);
    expect(net.iqLog).toContain('encrypt/count');
    expect(device.keys.preKeys.size).toBeGreaterThan(0); // the client uploaded its pre-keys
  });

  it('queues messages while the device is away and replays them as offline (append) after login', async () => {
    c.sock.end(undefined);
    await poll(() => device.link).toBeUndefined();
    await asha.sendText(me, 'first while away');
    await asha.sendText(me, 'second while away');
    expect(device.queue).toHaveLength(2);

    c = await client();
    await poll(() => c.seen.upserts.flatMap((u) => u.messages).length).toBe(2);
    expect(c.seen.upserts.map((u) => u.type)).toEqual(expect.arrayContaining(['append']));
    expect(c.seen.upserts.flatMap((u) => u.messages.map((m) => m.message?.conversation))).toEqual([
      'first while away',
      'second while away',
    ]);
    expect(c.seen.updates.some((u) => u.receivedPendingNotifications === true)).toBe(true);
    expect(device.queue).toEqual([]);
  });

  it('answers a send with an error ack when told to, and delivers nothing', async () => {
    net.failNextSend('479', asha);
    const sent = await c.sock.sendMessage(asha.pnJid(), { text: 'refused' });
    await poll(() => c.seen.messageUpdates.find((u) => u.key.id === sent?.key.id)?.update).toEqual({
      status: proto.WebMessageInfo.Status.ERROR,
      messageStubParameters: ['479'],
    });
    expect(asha.texts()).not.toContain('refused');
  });

  it('ends a connection with a bad-session stream error (500)', async () => {
    net.disconnect(device, 500);
    await poll(c.closeStatus).toBe(500);
    c = await client();
    await poll(c.opened).toBe(true);
  });

  it('refuses a login with a failure reason when told to (405: outdated client)', async () => {
    c.sock.end(undefined);
    await poll(() => device.link).toBeUndefined();
    net.refuseNextLogin(405);
    c = await client();
    await poll(c.closeStatus).toBe(405);
    c = await client();
    await poll(c.opened).toBe(true);
  });

  it('a device the phone unlinked is told 401, and its next login is refused with 401', async () => {
    net.unlink(device);
    await poll(c.closeStatus).toBe(401);
    c = await client();
    await poll(c.closeStatus).toBe(401);
    expect(c.opened()).toBe(false);
  });
});
