import { randomBytes } from 'node:crypto';
import { getBinaryNodeChild } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallUpdate } from '#shared/events/types';
import type { DriverLink } from '../../connection-host/drivers/driver.ts';
import { type DriverNetwork, linkThenLogin, startShopNetwork } from '../support/baileys-driver-rig.ts';
import type { Companion, FakeNetwork, FakeUser } from '../support/fake-network/index.ts';

/**
 * Calls as a real Baileys socket receives them from the fake network: the offer and the end of a
 * call reach the host as `onCall` in our words, and `rejectCall` puts the network's reject stanza
 * on the wire, addressed to the caller.
 */

let rig: DriverNetwork;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let device: Companion;
let link: DriverLink;
let calls: CallUpdate[] = [];
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const request = {
  tenantId: 't-calls',
  sessionId: `s-${randomBytes(4).toString('hex')}`,
  method: 'qr' as const,
};

beforeAll(async () => {
  ({ rig, net, me, asha } = await startShopNetwork('bcl', { me: '919876543266', asha: '14155550166' }));
});

afterAll(async () => {
  await link?.close();
  await rig?.close();
});

describe('calls on the network', () => {
  it('links, then logs in with the stored creds', async () => {
    const linked = await linkThenLogin(rig.driver(), request, me);
    ({ link, device } = linked);
    calls = linked.opened.calls;
    expect(linked.opened.opens).toEqual(['919876543266']);
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
