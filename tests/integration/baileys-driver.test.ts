import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import {
  BufferJSON,
  type GroupMetadata,
  type LTHashState,
  proto,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import { authTable } from '#shared/store/tables';
import { clearAuthState, loadAuthState } from '../../connection-host/drivers/baileys/auth-state.ts';
import { toLinkEnd } from '../../connection-host/drivers/baileys/disconnect.ts';
import { baileysDriver } from '../../connection-host/drivers/baileys/driver.ts';
import {
  normaliseContacts,
  normaliseMessage,
  receiptOfUpdate,
  receiptOfUserReceipt,
} from '../../connection-host/drivers/baileys/normalise.ts';
import {
  quotedStub,
  retryContent,
  toJid,
  toMessageContent,
} from '../../connection-host/drivers/baileys/outbound.ts';
import { wireEvents } from '../../connection-host/drivers/baileys/wire.ts';
import type { DriverEvents, LinkEnd } from '../../connection-host/drivers/driver.ts';
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
const items = (sessionId: string) => authTable.query<{ sk: string }>({ pk: `AUTH#${sessionId}` });

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
    onReceipt: () => seen.push('receipt'),
    onContacts: () => seen.push('contacts'),
    onGroup: () => seen.push('group'),
    onLidMapping: () => seen.push('lid'),
    onActivity: () => seen.push('activity'),
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
      expect(r.closes[0]).toEqual({ kind: 'transient', reason: expect.stringMatching(/timed out.*\(408\)/) });
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

describe('disconnect reasons', () => {
  const boom = (statusCode: number, message = 'x', data?: unknown) =>
    Object.assign(new Error(message), { output: { statusCode }, data });
  it.each([
    [515, 'restart'],
    [408, 'transient'],
    [428, 'transient'],
    [503, 'transient'],
    [401, 'logged_out'],
    [440, 'replaced'],
    [403, 'fatal'],
    [411, 'fatal'],
    [500, 'fatal'],
    [499, 'fatal'],
  ])('status %i → %s', (status, kind) => {
    expect(toLinkEnd(boom(status)).kind).toBe(kind);
  });
  it('treats socket errors as transient whatever the status', () => {
    const err = Object.assign(new Error('getaddrinfo ENOTFOUND web.whatsapp.com'), { code: 'ENOTFOUND' });
    const end = toLinkEnd(boom(500, 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)', err));
    expect(end).toEqual({ kind: 'transient', reason: expect.stringContaining('ENOTFOUND') });
  });
});

const msg = (m: Partial<WAMessage> & { key: WAMessage['key'] }): WAMessage => ({
  messageTimestamp: 1_700_000_000,
  ...m,
});

describe('inbound normalisation', () => {
  it('direct text from a phone number', () => {
    const n = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'A1', fromMe: false },
        message: { conversation: 'hello' },
        pushName: 'Asha',
      }),
    );
    expect(n?.message).toEqual({
      id: 'A1',
      chatId: '919876543210',
      senderPhone: '919876543210',
      senderName: 'Asha',
      kind: 'text',
      text: 'hello',
      timestampMs: 1_700_000_000_000,
    });
    expect(n?.media).toBeUndefined();
  });

  it('group image with caption from a LID-only sender', () => {
    const n = normaliseMessage(
      msg({
        key: { remoteJid: '120363012345678901@g.us', id: 'G1', participant: '123456789012345@lid' },
        message: { imageMessage: { caption: 'look', mimetype: 'image/jpeg', fileLength: 2048 } },
      }),
    );
    expect(n?.message).toMatchObject({
      chatId: '120363012345678901@g.us',
      groupId: '120363012345678901@g.us',
      senderPhone: null,
      senderLid: '123456789012345',
      kind: 'image',
      caption: 'look',
      mimetype: 'image/jpeg',
    });
    expect(n?.media).toEqual({ mimetype: 'image/jpeg', fileLength: 2048 });
    expect(n?.lidMapping).toBeUndefined();
  });

  it('group sender with LID and phone alternative; LIDs resolved from what the session knows', () => {
    const both = normaliseMessage(
      msg({
        key: {
          remoteJid: '120363012345678901@g.us',
          id: 'G2',
          participant: '123456789012345@lid',
          participantAlt: '919876543210@s.whatsapp.net',
        },
        message: { extendedTextMessage: { text: 'hi all' } },
      }),
    );
    expect(both?.message).toMatchObject({
      senderPhone: '919876543210',
      senderLid: '123456789012345',
      kind: 'text',
    });
    expect(both?.lidMapping).toEqual({ lid: '123456789012345', phone: '919876543210' });

    const direct = msg({
      key: { remoteJid: '123456789012345@lid', id: 'L1' },
      message: { conversation: 'x' },
    });
    expect(normaliseMessage(direct)?.message).toMatchObject({
      chatId: '123456789012345@lid',
      senderPhone: null,
    });
    expect(
      normaliseMessage(direct, (lid) => (lid === '123456789012345' ? '919876543210' : undefined))?.message,
    ).toMatchObject({ chatId: '919876543210', senderPhone: '919876543210', senderLid: '123456789012345' });
  });

  it('document (with caption wrapper), voice note, wrapped ephemeral text', () => {
    const doc = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'D1' },
        message: {
          documentWithCaptionMessage: {
            message: {
              documentMessage: {
                fileName: 'invoice.pdf',
                mimetype: 'application/pdf',
                caption: 'your invoice',
              },
            },
          },
        },
      }),
    );
    expect(doc?.message).toMatchObject({
      kind: 'document',
      fileName: 'invoice.pdf',
      mimetype: 'application/pdf',
      caption: 'your invoice',
    });
    expect(doc?.media?.mimetype).toBe('application/pdf');

    const voice = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'V1' },
        message: { audioMessage: { ptt: true, mimetype: 'audio/ogg; codecs=opus' } },
      }),
    );
    expect(voice?.message.kind).toBe('voice');

    const eph = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'E1' },
        message: { ephemeralMessage: { message: { extendedTextMessage: { text: 'vanishing' } } } },
      }),
    );
    expect(eph?.message).toMatchObject({ kind: 'text', text: 'vanishing' });
  });

  it('skips our own messages, status broadcasts and protocol messages', () => {
    const base = { remoteJid: '919876543210@s.whatsapp.net', id: 'X' };
    expect(
      normaliseMessage(msg({ key: { ...base, fromMe: true }, message: { conversation: 'x' } })),
    ).toBeUndefined();
    expect(
      normaliseMessage(
        msg({ key: { ...base, remoteJid: 'status@broadcast' }, message: { conversation: 'x' } }),
      ),
    ).toBeUndefined();
    expect(normaliseMessage(msg({ key: base, message: { protocolMessage: { type: 0 } } }))).toBeUndefined();
  });

  it('receipts and contacts', () => {
    const S = proto.WebMessageInfo.Status;
    const key = { remoteJid: '919876543210@s.whatsapp.net', id: 'M1', fromMe: true };
    expect(receiptOfUpdate({ key, update: { status: S.SERVER_ACK } })).toBe('sent');
    expect(receiptOfUpdate({ key, update: { status: S.DELIVERY_ACK } })).toBe('delivered');
    expect(receiptOfUpdate({ key, update: { status: S.READ } })).toBe('read');
    expect(receiptOfUpdate({ key: { ...key, fromMe: false }, update: { status: S.READ } })).toBeUndefined();
    expect(receiptOfUserReceipt({ userJid: 'x', receiptTimestamp: 5 })).toBe('delivered');
    expect(receiptOfUserReceipt({ userJid: 'x', receiptTimestamp: 5, readTimestamp: 6 })).toBe('read');

    expect(
      normaliseContacts([
        { id: '919876543210@s.whatsapp.net', name: 'Asha', lid: '123456789012345@lid' },
        { id: '111111111111111@lid', phoneNumber: '14155550100@s.whatsapp.net', notify: 'Bob' },
        { id: '222222222222222@lid', notify: 'unknown' },
      ]),
    ).toEqual([
      { phone: '919876543210', name: 'Asha', lid: '123456789012345' },
      { phone: '14155550100', name: 'Bob', lid: '111111111111111' },
    ]);
  });
});

describe('outbound mapping', () => {
  const bytes = new Uint8Array([1, 2, 3]);

  it('recipients become JIDs', () => {
    expect(toJid('+91 98765-43210')).toBe('919876543210@s.whatsapp.net');
    expect(toJid('120363012345678901@g.us')).toBe('120363012345678901@g.us');
    expect(toJid('123456789012345@lid')).toBe('123456789012345@lid');
    expect(toJid('919876543210@c.us')).toBe('919876543210@s.whatsapp.net');
    expect(() => toJid('not a number')).toThrow();
  });

  it('maps every content kind', () => {
    expect(toMessageContent({ kind: 'text', text: 'hi' })).toEqual({ text: 'hi' });
    const image = toMessageContent({ kind: 'image', caption: 'cap' }, { bytes, mimetype: 'image/png' });
    expect(image).toMatchObject({ caption: 'cap', mimetype: 'image/png' });
    expect(Buffer.isBuffer((image as { image: Buffer }).image)).toBe(true);
    expect(
      toMessageContent({ kind: 'voice', durationSeconds: 7.4 }, { bytes, mimetype: 'audio/mpeg' }),
    ).toMatchObject({
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
      seconds: 7,
    });
    expect(toMessageContent({ kind: 'audio' }, { bytes, mimetype: 'audio/mpeg' })).toMatchObject({
      ptt: false,
      mimetype: 'audio/mpeg',
    });
    expect(
      toMessageContent({ kind: 'pdf', fileName: 'a.pdf' }, { bytes, mimetype: 'application/octet-stream' }),
    ).toMatchObject({
      fileName: 'a.pdf',
      mimetype: 'application/pdf',
    });
    expect(toMessageContent({ kind: 'document' }, { bytes, mimetype: 'text/csv' })).toMatchObject({
      fileName: 'file',
      mimetype: 'text/csv',
    });
    expect(
      toMessageContent({
        kind: 'buttons',
        text: 'Pick one',
        buttons: [
          { id: 'a', title: 'Yes' },
          { id: 'b', title: 'No' },
        ],
      }),
    ).toEqual({ text: 'Pick one\n\n1. Yes\n2. No' });
    expect(() => toMessageContent({ kind: 'video' })).toThrow(/media/);
  });

  it('quotes and retries use what the store knows', () => {
    const jid = '120363012345678901@g.us';
    const q = quotedStub(jid, 'Q1', {
      kind: 'image',
      direction: 'inbound',
      senderPhone: '919876543210',
      caption: 'c',
    });
    expect(q.key).toEqual({
      remoteJid: jid,
      id: 'Q1',
      fromMe: false,
      participant: '919876543210@s.whatsapp.net',
    });
    expect(q.message?.imageMessage?.caption).toBe('c');
    expect(quotedStub('919876543210@s.whatsapp.net', 'Q2', undefined).key.fromMe).toBe(false);
    expect(retryContent({ kind: 'text', direction: 'outbound', text: 'again' })).toEqual({
      conversation: 'again',
    });
    expect(retryContent({ kind: 'image', direction: 'outbound' })).toBeUndefined();
  });
});

describe('event wiring', () => {
  it('turns socket events into driver events', async () => {
    const ev = new EventEmitter();
    const calls: Array<[string, ...unknown[]]> = [];
    const events: DriverEvents = {
      onQr: () => {},
      onPairingCode: () => {},
      onOpen: () => {},
      onClose: () => {},
      onInbound: (m, media) => calls.push(['inbound', m, media]),
      onReceipt: (id, status) => calls.push(['receipt', id, status]),
      onContacts: (c) => calls.push(['contacts', c]),
      onGroup: (g) => calls.push(['group', g]),
      onLidMapping: (lid, phone) => calls.push(['lid', lid, phone]),
      onActivity: () => {},
    };
    const sock = {
      ev,
      signalRepository: {
        lidMapping: {
          getPNsForLIDs: async (lids: string[]) =>
            lids.includes('555555555555555@lid')
              ? [{ lid: '555555555555555@lid', pn: '14155550100:0@s.whatsapp.net' }]
              : [],
        },
      },
      groupMetadata: async () => {
        throw new Error('not expected');
      },
      updateMediaMessage: async (m: WAMessage) => m,
    } as unknown as WASocket;
    wireEvents({
      sock,
      events,
      log: logger.child({}, { level: 'silent' }),
      maxMediaBytes: 1000,
      mediaTimeoutMs: 1000,
      groups: new Map(),
      contacts: new Set(),
    });

    ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        msg({ key: { remoteJid: '555555555555555@lid', id: 'I1' }, message: { conversation: 'first' } }),
        // No url/key: the download fails, the message still arrives (without media).
        msg({
          key: { remoteJid: '919876543210@s.whatsapp.net', id: 'I2' },
          message: { imageMessage: { mimetype: 'image/png' } },
        }),
      ],
    });
    ev.emit('messages.upsert', {
      type: 'append',
      messages: [msg({ key: { remoteJid: '1@s.whatsapp.net', id: 'I3' }, message: { conversation: 'old' } })],
    });
    ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        msg({
          key: { remoteJid: '919876543210@s.whatsapp.net', id: 'I4' },
          message: { conversation: 'third' },
        }),
      ],
    });
    ev.emit('messages.update', [
      { key: { remoteJid: '919876543210@s.whatsapp.net', id: 'O1', fromMe: true }, update: { status: 4 } },
    ]);
    ev.emit('message-receipt.update', [
      {
        key: { remoteJid: '120363000000000001@g.us', id: 'O2', fromMe: true },
        receipt: { userJid: 'x', receiptTimestamp: 9 },
      },
    ]);
    ev.emit('lid-mapping.update', { lid: '777777777777777@lid', pn: '919999999999@s.whatsapp.net' });
    ev.emit('contacts.upsert', [{ id: '919876543210@s.whatsapp.net', notify: 'Asha' }]);
    const group: GroupMetadata = {
      id: '120363000000000001@g.us',
      subject: 'Team',
      owner: undefined,
      participants: [
        { id: '919876543210@s.whatsapp.net' },
        { id: '555555555555555@lid' },
        { id: '888888888888888@lid' },
      ],
    };
    ev.emit('groups.update', [group]);

    await expect.poll(() => calls.filter((c) => c[0] === 'inbound').length, { timeout: 5000 }).toBe(3);
    const inbound = calls.filter((c) => c[0] === 'inbound');
    expect(inbound.map((c) => (c[1] as { id: string }).id)).toEqual(['I1', 'I2', 'I4']);
    expect(inbound[0]?.[1]).toMatchObject({
      chatId: '14155550100',
      senderPhone: '14155550100',
      senderLid: '555555555555555',
    });
    expect(inbound[1]?.[1]).toMatchObject({ kind: 'image', mimetype: 'image/png' });
    expect(inbound[1]?.[2]).toBeUndefined();
    expect(calls).toContainEqual(['receipt', 'O1', 'read']);
    expect(calls).toContainEqual(['receipt', 'O2', 'delivered']);
    expect(calls).toContainEqual(['lid', '777777777777777', '919999999999']);
    expect(calls).toContainEqual(['contacts', [{ phone: '919876543210', name: 'Asha' }]]);
    await expect
      .poll(() => calls.find((c) => c[0] === 'group'))
      .toEqual([
        'group',
        {
          groupId: '120363000000000001@g.us',
          subject: 'Team',
          participants: [{ phone: '919876543210' }, { phone: '14155550100' }],
        },
      ]);
  });
});
