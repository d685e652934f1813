import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { BufferJSON, type LTHashState, proto } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import { authPk } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import { clearAuthState, loadAuthState } from '../../connection-host/drivers/baileys/auth-state.ts';
import { baileysDriver } from '../../connection-host/drivers/baileys/driver.ts';
import type { DriverEvents, LinkEnd } from '../../connection-host/drivers/driver.ts';
import { SESSION_CACHE_BYTES } from '../../connection-host/session-memory.ts';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';
import { freePort } from '../../scripts/local/free-port.ts';
import { type LocalAws, startLocalAws } from '../../scripts/local/local-aws.ts';

let aws: LocalAws | undefined;
const quiet = logger.child({}, { level: 'warn' });

beforeAll(async () => {
  process.env.RESOURCE_PREFIX = `bly${Date.now() % 1_000_000}`;
  resetEnvCache();
  // Reuse the suite's local AWS when one is configured; otherwise start our own.
  if (!process.env.AWS_ENDPOINT_URL_DYNAMODB) aws = await startLocalAws();
  await bootstrapResources(process.env.RESOURCE_PREFIX, 1);
});

afterAll(async () => {
  await aws?.stop();
});

const json = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);
const items = (sessionId: string) => authTable.query<{ sk: string }>({ pk: authPk(sessionId) });

describe('DynamoDB auth state', () => {
  it('round-trips creds and keys with Buffers intact; null deletes; clearAuthState empties it', async () => {
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    const a = await loadAuthState(sessionId);
    a.state.creds.me = { id: '919876543210:5@s.whatsapp.net', name: 'Asha' };
    await a.saveCreds();

    const preKeys = Object.fromEntries(
      Array.from({ length: 230 }, (_, i) => [
        String(i + 1),
        { public: randomBytes(32), private: randomBytes(32) },
      ]),
    );
    const session = randomBytes(600);
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: randomBytes(32),
      timestamp: 1_700_000_000,
    });
    await a.state.keys.set({
      'pre-key': preKeys, // > 100 items: several transactions
      session: { '919876543210.0': session },
      'sender-key-memory': { '120363000000000001@g.us': { '919876543210:0@s.whatsapp.net': true } },
      'app-state-sync-key': { AAAAAQ: syncKey },
      'lid-mapping': { '919876543210': '123456789012345', '123456789012345_reverse': '919876543210' },
      'device-list': { '919876543210': ['0', '5'] },
      tctoken: { '919876543210@s.whatsapp.net': { token: randomBytes(16), timestamp: '1700000000' } },
    });

    // A fresh state (no cache) reads everything back from DynamoDB.
    const b = await loadAuthState(sessionId);
    expect(json(b.state.creds)).toBe(json(a.state.creds));
    expect(Buffer.isBuffer(b.state.creds.noiseKey.private)).toBe(true);
    expect(b.state.creds.me?.id).toBe('919876543210:5@s.whatsapp.net');

    const ids = Object.keys(preKeys);
    const gotPreKeys = await b.state.keys.get('pre-key', ids);
    expect(Object.keys(gotPreKeys)).toHaveLength(230);
    expect(Buffer.isBuffer(gotPreKeys['17']?.private)).toBe(true);
    expect(json(gotPreKeys)).toBe(json(preKeys));
    const gotSession = await b.state.keys.get('session', ['919876543210.0', 'missing.0', '919876543210.0']);
    expect(Buffer.compare(Buffer.from(gotSession['919876543210.0'] ?? []), session)).toBe(0);
    expect(gotSession).not.toHaveProperty('missing.0');
    const gotSync = await b.state.keys.get('app-state-sync-key', ['AAAAAQ']);
    expect(gotSync.AAAAAQ).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(gotSync.AAAAAQ?.keyData ?? []).equals(Buffer.from(syncKey.keyData ?? []))).toBe(true);
    expect(await b.state.keys.get('lid-mapping', ['919876543210'])).toEqual({
      '919876543210': '123456789012345',
    });
    expect(await b.state.keys.get('device-list', ['919876543210'])).toEqual({ '919876543210': ['0', '5'] });
    const tc = await b.state.keys.get('tctoken', ['919876543210@s.whatsapp.net']);
    expect(Buffer.isBuffer(tc['919876543210@s.whatsapp.net']?.token)).toBe(true);

    // null deletes, in DynamoDB and in the cache.
    await b.state.keys.set({ session: { '919876543210.0': null }, 'pre-key': { '1': null } });
    expect(await b.state.keys.get('session', ['919876543210.0'])).toEqual({});
    const c = await loadAuthState(sessionId);
    expect(await c.state.keys.get('pre-key', ['1', '2'])).toHaveProperty('2');
    expect(await c.state.keys.get('pre-key', ['1'])).toEqual({});

    await clearAuthState(sessionId);
    expect(await items(sessionId)).toEqual([]);
    const d = await loadAuthState(sessionId);
    expect(d.state.creds.me).toBeUndefined();
    expect(d.state.creds.registered).toBe(false);
  });

  it('keeps its key cache within its byte budget: pre-keys stay in the table, evicted keys are read back', async () => {
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    const a = await loadAuthState(sessionId);
    const preKeys = Object.fromEntries(
      Array.from({ length: 812 }, (_, i) => [
        String(i + 1),
        { public: randomBytes(32), private: randomBytes(32) },
      ]),
    );
    await a.state.keys.set({ 'pre-key': preKeys }); // what Baileys uploads when it links
    expect(a.cachedBytes()).toBe(0);

    // ~1.5 MB of sessions: four times the budget.
    const sessions = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`91980000${String(i).padStart(4, '0')}.0`, randomBytes(5000)]),
    );
    await a.state.keys.set({ session: sessions });
    expect(a.cachedBytes()).toBeGreaterThan(0);
    expect(a.cachedBytes()).toBeLessThanOrEqual(SESSION_CACHE_BYTES.authKeys);

    // Everything reads back, from the cache or the table, and the cache stays bounded.
    const ids = Object.keys(sessions);
    const got = await a.state.keys.get('session', ids);
    expect(Object.keys(got)).toHaveLength(300);
    for (const id of ids) expect(Buffer.from(got[id] ?? []).equals(sessions[id] as Buffer)).toBe(true);
    expect(a.cachedBytes()).toBeLessThanOrEqual(SESSION_CACHE_BYTES.authKeys);
    expect(Object.keys(await a.state.keys.get('pre-key', ['1', '812']))).toEqual(['1', '812']);
    await clearAuthState(sessionId);
  });

  it('splits values over the 400 KB item limit into parts and cleans them up', async () => {
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    const a = await loadAuthState(sessionId);
    const indexValueMap: LTHashState['indexValueMap'] = {};
    for (let i = 0; i < 7000; i++)
      indexValueMap[randomBytes(32).toString('base64')] = { valueMac: randomBytes(32) };
    const big: LTHashState = { version: 42, hash: randomBytes(128), indexValueMap };
    await a.state.keys.set({ 'app-state-sync-version': { regular_high: big } });
    const stored = (await items(sessionId)).map((i) => i.sk);
    expect(
      stored.filter((sk) => sk.startsWith('app-state-sync-version#regular_high#part#')).length,
    ).toBeGreaterThan(1);

    const b = await loadAuthState(sessionId);
    const got = await b.state.keys.get('app-state-sync-version', ['regular_high']);
    expect(json(got.regular_high)).toBe(json(big));

    // Shrinking the value removes the parts it no longer needs.
    await b.state.keys.set({ 'app-state-sync-version': { regular_high: { ...big, indexValueMap: {} } } });
    expect((await items(sessionId)).map((i) => i.sk)).toEqual(['app-state-sync-version#regular_high']);
    await clearAuthState(sessionId);
    expect(await items(sessionId)).toEqual([]);
  });
});

function recorder() {
  const closes: LinkEnd[] = [];
  const seen: string[] = [];
  const events: DriverEvents = {
    onQr: () => seen.push('qr'),
    onPairingCode: () => seen.push('pairing'),
    onOpen: () => seen.push('open'),
    onClose: (end) => closes.push(end),
    onInbound: () => seen.push('inbound'),
    onOwnMessage: () => seen.push('own'),
    onReceipt: () => seen.push('receipt'),
    onSendFailed: () => seen.push('failed'),
    onContacts: () => seen.push('contacts'),
    onGroup: () => seen.push('group'),
    onLidMapping: () => seen.push('lid'),
    onMessageChange: () => seen.push('change'),
    onPollVote: () => seen.push('vote'),
    onActivity: () => seen.push('activity'),
    onRestriction: () => seen.push('restriction'),
    onCall: () => seen.push('call'),
    onHistory: () => seen.push('history'),
  };
  return { closes, seen, events };
}

/**
 * Connects a second link to the same dead address and waits for its close. Its connection attempt
 * started after everything the first link did, so once it is reported, a late report from the first
 * link would be in too.
 */
async function controlLinkClosed(driver: ReturnType<typeof baileysDriver>) {
  const r = recorder();
  const link = await driver.connect(
    { tenantId: 't1', sessionId: `s-${randomBytes(4).toString('hex')}`, method: 'qr' },
    r.events,
  );
  await expect.poll(() => r.closes.length, { timeout: 10_000 }).toBe(1);
  await link.close();
}

describe('Baileys driver with the network unreachable', () => {
  it('reports a transient close with a clear reason and nothing unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const port = await freePort();
      const driver = baileysDriver({
        logger: quiet,
        waWebSocketUrl: `ws://127.0.0.1:${port}/ws/chat`,
        connectTimeoutMs: 5000,
      });
      const r = recorder();
      const link = await driver.connect(
        { tenantId: 't1', sessionId: `s-${randomBytes(4).toString('hex')}`, method: 'qr' },
        r.events,
      );
      await expect.poll(() => r.closes.length, { timeout: 10_000 }).toBe(1);
      const end = r.closes[0];
      expect(end?.kind).toBe('transient');
      expect(end && 'reason' in end ? end.reason : '').toMatch(/network error \(ECONNREFUSED\)/);
      await expect(link.probe()).rejects.toThrow();
      await link.close();
      await controlLinkClosed(driver);
      expect(r.closes).toHaveLength(1);
      expect(r.seen).not.toContain('open');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reports nothing after the host closes the link itself, and refuses phone linking without a number', async () => {
    const driver = baileysDriver({
      logger: quiet,
      waWebSocketUrl: `ws://127.0.0.1:${await freePort()}/ws/chat`,
    });
    const r = recorder();
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    const link = await driver.connect({ tenantId: 't1', sessionId, method: 'qr' }, r.events);
    await link.close();
    await controlLinkClosed(driver);
    expect(r.closes).toEqual([]);
    await expect(driver.connect({ tenantId: 't1', sessionId, method: 'phone' }, r.events)).rejects.toThrow(
      /phone number/,
    );
  });

  it('a server that never answers ends in a transient timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((res) => silent.listen(0, '127.0.0.1', res));
    try {
      const { port } = silent.address() as AddressInfo;
      const driver = baileysDriver({
        logger: quiet,
        waWebSocketUrl: `ws://127.0.0.1:${port}/ws/chat`,
        connectTimeoutMs: 1500,
      });
      const r = recorder();
      await driver.connect(
        { tenantId: 't1', sessionId: `s-${randomBytes(4).toString('hex')}`, method: 'qr' },
        r.events,
      );
      await expect.poll(() => r.closes.length, { timeout: 8000 }).toBe(1);
      expect(r.closes[0]).toEqual({
        kind: 'transient',
        code: 408,
        reason: expect.stringMatching(/timed out.*\(408\)/),
      });
    } finally {
      silent.close();
    }
  });

  it('logout on a dead link still removes the stored auth state', async () => {
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    const a = await loadAuthState(sessionId);
    a.state.creds.me = { id: '919876543210:5@s.whatsapp.net' };
    a.state.creds.account = { details: randomBytes(8) };
    await a.saveCreds();
    await a.state.keys.set({ session: { '919876543210.0': randomBytes(40) } });
    expect((await items(sessionId)).length).toBe(2);

    const driver = baileysDriver({
      logger: quiet,
      waWebSocketUrl: `ws://127.0.0.1:${await freePort()}/ws/chat`,
    });
    const r = recorder();
    const link = await driver.connect({ tenantId: 't1', sessionId, method: 'qr' }, r.events);
    await expect.poll(() => r.closes.length, { timeout: 8000 }).toBe(1);
    await link.logout().catch(() => undefined); // the network cannot be told; the state goes anyway
    expect(await items(sessionId)).toEqual([]);
  });
});
