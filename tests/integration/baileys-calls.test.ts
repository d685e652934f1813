import { randomBytes } from 'node:crypto';
import { getBinaryNodeChild } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import type { CallUpdate } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { baileysDriver } from '../../connection-host/drivers/baileys/driver.ts';
import type { DriverEvents, DriverLink } from '../../connection-host/drivers/driver.ts';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';
import type { Companion } from '../support/fake-network/index.ts';
import { type FakeNetwork, type FakeUser, startFakeNetwork } from '../support/fake-network/index.ts';

/**
 * Calls as a real Baileys socket receives them from the fake network: the offer and the end of a
 * call reach the host as `onCall` in our words, and `rejectCall` puts the network's reject stanza
 * on the wire, addressed to the caller.
 */

let net: FakeNetwork;
let untrust: () => void;
let me: FakeUser;
let asha: FakeUser;
let device: Companion;
let link: DriverLink;
const calls: CallUpdate[] = [];
const quiet = logger.child({}, { level: 'silent' });
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const request = {
  tenantId: 't-calls',
  sessionId: `s-${randomBytes(4).toString('hex')}`,
  method: 'qr' as const,
};

function recorder() {
  const r = { qrs: [] as string[], opens: [] as string[], closes: 0 };
  const nothing = () => {};
  const events: DriverEvents = {
    onQr: (qr) => r.qrs.push(qr),
    onPairingCode: nothing,
    onOpen: ({ mobile }) => r.opens.push(mobile),
    onClose: () => r.closes++,
    onInbound: nothing,
    onOwnMessage: nothing,
    onMessageChange: nothing,
    onReceipt: nothing,
    onSendFailed: nothing,
    onContacts: nothing,
    onGroup: nothing,
    onLidMapping: nothing,
    onActivity: nothing,
    onRestriction: nothing,
    onCall: (c) => calls.push(c),
    onPollVote: () => {},
    onHistory: nothing,
  };
  return { r, events };
}

const driver = () => baileysDriver({ logger: quiet, waWebSocketUrl: net.url, connectTimeoutMs: 5000 });

beforeAll(async () => {
  process.env.RESOURCE_PREFIX = `bcl${Date.now() % 1_000_000}`;
  resetEnvCache();
  await bootstrapResources(process.env.RESOURCE_PREFIX, 1);
  net = await startFakeNetwork();
  untrust = net.trustInThisProcess();
  me = net.addUser({ phone: '919876543266', name: 'Shop' });
  asha = net.addUser({ phone: '14155550166', name: 'Asha' });
});

afterAll(async () => {
  await link?.close();
  untrust?.();
  await net?.close();
});

describe('calls on the network', () => {
  it('links, then logs in with the stored creds', async () => {
    const linking = recorder();
    const first = await driver().connect(request, linking.events);
    await poll(() => linking.r.qrs.length).toBe(1);
    device = await me.scanQr(linking.r.qrs[0] ?? '');
    await poll(() => linking.r.closes).toBe(1); // the 515 after pairing
    await first.close();
    const opened = recorder();
    link = await driver().connect(request, opened.events);
    await poll(() => opened.r.opens).toEqual(['919876543266']);
    await poll(() => device.online).toBe(true);
  });

  it('a video call that rings out: offer, then missed, the caller as digits', async () => {
    const callId = net.ring(asha, me, { video: true });
    await poll(() => calls.filter((c) => c.callId === callId).map((c) => c.status)).toEqual(['offer']);
    expect(calls.at(-1)).toMatchObject({
      from: '14155550166',
      fromLid: asha.lidJid().split('@')[0],
      video: true,
      group: false,
    });
    expect(Math.abs((calls.at(-1)?.timestampMs ?? 0) - Date.now())).toBeLessThan(5_000);
    net.hangUp(asha, me, callId, 'timeout');
    await poll(() => calls.filter((c) => c.callId === callId).map((c) => c.status)).toEqual([
      'offer',
      'missed',
    ]);
  });

  it('rejectCall sends the reject stanza to the network, for that call and caller', async () => {
    const callId = net.ring(asha, me);
    await poll(() => calls.some((c) => c.callId === callId && c.status === 'offer')).toBe(true);
    expect(calls.at(-1)?.video).toBe(false);
    await link.rejectCall(callId);
    await poll(() => net.callStanzas.length).toBe(1);
    const stanza = net.callStanzas[0];
    expect(stanza?.from).toBe(device);
    const reject = getBinaryNodeChild(stanza?.node, 'reject');
    expect(reject?.attrs['call-id']).toBe(callId);
    expect(reject?.attrs['call-creator']).toBe(asha.lidJid());
    expect(stanza?.node.attrs.to).toBe(asha.lidJid());
    await expect(link.rejectCall('NOSUCHCALL')).rejects.toThrow(/no call NOSUCHCALL/);
  });
});
