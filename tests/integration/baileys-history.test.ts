import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverLink, LinkRequest } from '../../connection-host/drivers/driver.ts';
import { type DriverNetwork, linkThenLogin, startDriverNetwork } from '../support/baileys-driver-rig.ts';
import type { FakeNetwork, FakeUser } from '../support/fake-network/index.ts';

/**
 * The phone's history sync as a real Baileys socket receives it from the fake network at a
 * device's first login: a session that asked (`syncHistory`) reports the received messages of its
 * days through `onHistory` (never `onInbound`); a session that did not reports none.
 */

const DAY = 86_400_000;
let rig: DriverNetwork;
let net: FakeNetwork;
let asha: FakeUser;
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 20_000 });
const links: DriverLink[] = [];

/** Links `user` with a fresh session, then logs in with the stored creds (the history comes then). */
async function linkAndLogin(user: FakeUser, syncHistory?: { days: number }) {
  const request: LinkRequest = {
    tenantId: 't-history',
    sessionId: `s-${randomBytes(4).toString('hex')}`,
    method: 'qr',
    ...(syncHistory ? { syncHistory } : {}),
  };
  const { link, opened } = await linkThenLogin(rig.driver(), request, user);
  links.push(link);
  return opened;
}

beforeAll(async () => {
  rig = await startDriverNetwork('bhs');
  net = rig.net;
  asha = net.addUser({ phone: '14155550188', name: 'Asha' });
});

afterAll(async () => {
  for (const l of links) await l.close().catch(() => undefined);
  await rig?.close();
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
