import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverLink } from '../../connection-host/drivers/driver.ts';
import {
  type DriverNetwork,
  linkThenLogin,
  recorder,
  startShopNetwork,
} from '../support/baileys-driver-rig.ts';
import type { Companion, FakeNetwork, FakeUser } from '../support/fake-network/index.ts';

/**
 * Messages the network delivered while the device was away are replayed at login; Baileys receipts
 * each one (the network will never send it again) and holds the events until the replay is done.
 * A link closed in the middle of that replay, by the network or by the host, must still report
 * every message the device receipted.
 */

let rig: DriverNetwork;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let device: Companion;
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const request = {
  tenantId: 't-offline',
  sessionId: `s-${randomBytes(4).toString('hex')}`,
  method: 'qr' as const,
};

/** The ids of messages the device has receipted to the network. */
const receipted = () =>
  net.receipts
    .filter((r) => r.from === device)
    .flatMap((r) => {
      const list = Array.isArray(r.node.content) ? r.node.content.find((n) => n.tag === 'list') : undefined;
      const rest = Array.isArray(list?.content) ? list.content.map((i) => i.attrs.id ?? '') : [];
      return [r.node.attrs.id ?? '', ...rest];
    });

/** Three texts from Asha while the device is offline, then a login that replays them but never finishes. */
async function replayInterrupted(tag: string) {
  await poll(() => device.link).toBeUndefined();
  const ids: string[] = [];
  for (let i = 1; i <= 3; i++) ids.push(await asha.sendText(me, `${tag} ${i}`));
  expect(device.queue).toHaveLength(3);
  net.holdOfflineDone = true;
  const rec = recorder();
  const link = await rig.driver().connect(request, rec.events);
  // Every one receipted: from here on the network will never deliver them again.
  await poll(() => ids.every((id) => receipted().includes(id))).toBe(true);
  return { ids, rec, link };
}

beforeAll(async () => {
  ({ rig, net, me, asha } = await startShopNetwork('boc', { me: '919876543244', asha: '14155550144' }));
});

afterAll(async () => {
  await rig?.close();
});

describe('a link closed during the offline replay', () => {
  let link: DriverLink | undefined;

  it('links, logs in once (history sync done), and closes: the device is away', async () => {
    const linked = await linkThenLogin(rig.driver(), request, me);
    device = linked.device;
    await poll(() => device.online).toBe(true);
    await linked.link.close();
  });

  it('by the network: every receipted message is still reported', async () => {
    const replay = await replayInterrupted('network');
    link = replay.link;
    net.disconnect(device, 428);
    await poll(() => replay.rec.closes.map((c) => c.kind)).toEqual(['transient']);
    await poll(() => replay.rec.inbound.map((m) => m.id)).toEqual(replay.ids);
    expect(replay.rec.inbound.map((m) => m.text)).toEqual(['network 1', 'network 2', 'network 3']);
    expect(replay.rec.inbound.every((m) => m.backlog)).toBe(true);
    await link.close();
    net.releaseOfflineDone();
  });

  it('by the host: every receipted message is still reported before close() resolves', async () => {
    const replay = await replayInterrupted('host');
    await replay.link.close();
    expect(replay.rec.inbound.map((m) => m.id)).toEqual(replay.ids);
    expect(replay.rec.closes).toEqual([]);
    net.releaseOfflineDone();
  });
});
