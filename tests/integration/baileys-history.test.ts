import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import type { InboundMessage } from '#shared/messages/content';
import { baileysDriver } from '../../connection-host/drivers/baileys/driver.ts';
import type { DriverEvents, DriverLink, LinkRequest } from '../../connection-host/drivers/driver.ts';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';
import { type FakeNetwork, type FakeUser, startFakeNetwork } from '../support/fake-network/index.ts';

/**
 * The phone's history sync as a real Baileys socket receives it from the fake network at a
 * device's first login: a session that asked (`syncHistory`) reports the received messages of its
 * days through `onHistory` (never `onInbound`); a session that did not reports none.
 */

const DAY = 86_400_000;
let net: FakeNetwork;
let untrust: () => void;
let asha: FakeUser;
const quiet = logger.child({}, { level: 'silent' });
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 20_000 });
const links: DriverLink[] = [];

function recorder() {
  const r = {
    qrs: [] as string[],
    opens: [] as string[],
    closes: 0,
    history: [] as Array<Omit<InboundMessage, 'mediaKey'>>,
    syncs: [] as string[],
    inbound: [] as string[],
  };
  const nothing = () => {};
  const events: DriverEvents = {
    onQr: (qr) => r.qrs.push(qr),
    onPairingCode: nothing,
    onOpen: ({ mobile }) => r.opens.push(mobile),
    onClose: () => r.closes++,
    onInbound: (m) => r.inbound.push(m.id),
    onOwnMessage: nothing,
    onMessageChange: nothing,
    onReceipt: nothing,
    onSendFailed: nothing,
    onContacts: nothing,
    onGroup: nothing,
    onLidMapping: nothing,
    onActivity: nothing,
    onRestriction: nothing,
    onCall: nothing,
    onPollVote: () => {},
    onHistory: (messages, sync) => {
      r.history.push(...messages);
      r.syncs.push(sync.syncType);
    },
  };
  return { r, events };
}

const driver = () => baileysDriver({ logger: quiet, waWebSocketUrl: net.url, connectTimeoutMs: 5000 });

/** Links `user` with a fresh session, then logs in with the stored creds (the history comes then). */
async function linkAndLogin(user: FakeUser, syncHistory?: { days: number }) {
  const request: LinkRequest = {
    tenantId: 't-history',
    sessionId: `s-${randomBytes(4).toString('hex')}`,
    method: 'qr',
    ...(syncHistory ? { syncHistory } : {}),
  };
  const linking = recorder();
  const first = await driver().connect(request, linking.events);
  links.push(first);
  await poll(() => linking.r.qrs.length).toBe(1);
  await user.scanQr(linking.r.qrs[0] ?? '');
  await poll(() => linking.r.closes).toBe(1); // the 515 after pairing
  await first.close();
  const opened = recorder();
  links.push(await driver().connect(request, opened.events));
  await poll(() => opened.r.opens).toEqual([user.number]);
  return opened.r;
}

beforeAll(async () => {
  process.env.RESOURCE_PREFIX = `bhs${Date.now() % 1_000_000}`;
  resetEnvCache();
  await bootstrapResources(process.env.RESOURCE_PREFIX, 1);
  net = await startFakeNetwork();
  untrust = net.trustInThisProcess();
  asha = net.addUser({ phone: '14155550188', name: 'Asha' });
});

afterAll(async () => {
  for (const l of links) await l.close().catch(() => undefined);
  untrust?.();
  await net?.close();
});

const chats = (user: FakeUser) => {
  user.history.push(
    { from: asha, text: 'a month ago', at: new Date(Date.now() - 30 * DAY), id: `H1${user.number}` },
    { from: asha, text: 'three days ago', at: new Date(Date.now() - 3 * DAY), id: `H2${user.number}` },
    { from: asha, text: 'an hour ago', at: new Date(Date.now() - 3_600_000), id: `H3${user.number}` },
  );
};

describe('history sync at linking', () => {
  it('a session that asked for 7 days reports those messages as history, oldest first', async () => {
    const me = net.addUser({ phone: '919876543288', name: 'Shop' });
    chats(me);
    const r = await linkAndLogin(me, { days: 7 });
    await poll(() => r.history.map((m) => m.text)).toEqual(['three days ago', 'an hour ago']);
    expect(r.history[0]).toMatchObject({
      id: 'H2919876543288',
      chatId: '14155550188',
      senderPhone: '14155550188',
      senderName: 'Asha',
      kind: 'text',
    });
    expect(r.syncs).toEqual(['INITIAL_BOOTSTRAP']);
    expect(r.inbound).toEqual([]);
  });

  it('a session that did not ask reports none of it', async () => {
    const me = net.addUser({ phone: '919876543299', name: 'Shop 2' });
    chats(me);
    const r = await linkAndLogin(me);
    // The sync arrived and was processed (the device is online after it); nothing was reported.
    const device = [...me.companions.values()][0];
    await poll(() => device?.historySent).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(r.history).toEqual([]);
    expect(r.inbound).toEqual([]);
  });
});
