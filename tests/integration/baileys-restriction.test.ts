import { randomBytes } from 'node:crypto';
import { DEFAULT_CONNECTION_CONFIG, type WAVersion } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Restriction } from '#shared/sessions/restriction';
import { ClientVersion } from '../../connection-host/drivers/baileys/client-version.ts';
import {
  type DriverLink,
  SendRefusedError,
  SendUnconfirmedError,
} from '../../connection-host/drivers/driver.ts';
import {
  type DriverNetwork,
  linkThenLogin,
  recorder,
  startShopNetwork,
} from '../support/baileys-driver-rig.ts';
import type { Companion, FakeNetwork, FakeUser } from '../support/fake-network/index.ts';

/**
 * The network's 2026 restrictions, as a real Baileys socket receives them from the fake network:
 * a 463 error ack, the reach-out time-lock and the new-chat capping pushes. Each reaches the host
 * as `onRestriction` (our words, with the end and the cap), and a 463 refuses the send with the
 * documented NEW_CHATS_RESTRICTED reason.
 */

const TENANT = 't-restrict';
let rig: DriverNetwork;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let device: Companion;
let link: DriverLink;
let restrictions: Array<Restriction | null> = [];
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const sessionId = `s-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ({ rig, net, me, asha } = await startShopNetwork('brs', { me: '919876543244', asha: '14155550144' }));
});

afterAll(async () => {
  await link?.close();
  await rig?.close();
});

const request = { tenantId: TENANT, sessionId, method: 'qr' as const };

describe('restriction signals from the network', () => {
  it('links, then logs in with the stored creds', async () => {
    const linked = await linkThenLogin(rig.driver(), request, me);
    ({ link, device } = linked);
    restrictions = linked.opened.restrictions;
    expect(linked.opened.opens).toEqual(['919876543244']);
    await poll(() => device.online).toBe(true);
  });

  it('a 463 refuses the send as NEW_CHATS_RESTRICTED and reports restricted_new_chats', async () => {
    net.failNextSend('463', asha);
    const sent = link.send('3EB0RESTRICT463', '14155550144', { kind: 'text', text: 'hello' });
    await expect(sent).rejects.toBeInstanceOf(SendRefusedError);
    await expect(sent).rejects.toThrow(/^NEW_CHATS_RESTRICTED: .*error 463/);
    await poll(() => restrictions.at(-1)?.reason).toBe('restricted_new_chats');
    expect(restrictions.at(-1)?.until).toBeGreaterThan(Date.now());
  });

  it('a reach-out time-lock push reports its end; its lifting reports null', async () => {
    const ends = Math.floor(Date.now() / 1000) + 86_400;
    net.notifyMex(device, 'NotificationUserReachoutTimelockUpdate', {
      xwa2_notify_account_reachout_timelock: {
        is_active: true,
        time_enforcement_ends: String(ends),
        enforcement_type: 'BIZ_QUALITY',
      },
    });
    await poll(() => restrictions.at(-1)).toEqual({
      reason: 'reachout_timelock',
      until: ends * 1000,
      detail: 'BIZ_QUALITY',
    });
    net.notifyMex(device, 'NotificationUserReachoutTimelockUpdate', {
      xwa2_notify_account_reachout_timelock: { is_active: false },
    });
    await poll(() => restrictions.at(-1)).toBeNull();
  });

  it('a capping push reports the cap, the use and whether it is reached', async () => {
    net.notifyMex(device, 'MessageCappingInfoNotification', {
      xwa2_notify_new_chat_messages_capping_info_update: {
        total_quota: 250,
        used_quota: 250,
        cycle_end_timestamp: '1800000000',
        capping_status: 'CAPPED',
      },
    });
    await poll(() => restrictions.at(-1)).toEqual({
      reason: 'message_capping',
      capped: true,
      detail: 'CAPPED',
      cap: 250,
      used: 250,
      until: 1_800_000_000_000,
    });
  });
});

describe('a raised minimum client version (405)', () => {
  it('the host looks the current version up and the next login goes through, no operator', async () => {
    await link.close();
    const builtIn = DEFAULT_CONNECTION_CONFIG.version;
    const current: WAVersion = [builtIn[0], builtIn[1], builtIn[2] + 1];
    net.minClientVersion = current;
    const lookup = vi.fn(async () => current);
    const clientVersion = new ClientVersion({ lookup, timeoutMs: 2000 });
    const withVersion = () => rig.driver({ clientVersion });

    const refused = recorder();
    const first = await withVersion().connect(request, refused.events);
    await poll(() => refused.closes.map((e) => e.code)).toEqual([405]);
    await first.close();
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(clientVersion.current).toEqual(current);

    // What the runtime does on `refused`: connect again (after its backoff).
    const again = recorder();
    link = await withVersion().connect(request, again.events);
    await poll(() => again.opens).toEqual(['919876543244']);
    expect(again.closes).toEqual([]);
  });
});

describe('a media upload that stalls', () => {
  it('does not hold the send: it rejects as unconfirmed within its bound', async () => {
    await link.close();
    net.unansweredIqs.add('w:m/media_conn');
    const opened = recorder();
    link = await rig
      .driver({
        mediaUploadTimeoutMs: 300,
        clientVersion: new ClientVersion({ pinned: net.minClientVersion as WAVersion }),
      })
      .connect(request, opened.events);
    await poll(() => opened.opens).toEqual(['919876543244']);
    const started = Date.now();
    const sent = link.send(
      '3EB0STALLEDUPLOAD',
      '14155550144',
      { kind: 'document', fileName: 'menu.pdf' },
      { bytes: new Uint8Array(2048), mimetype: 'application/pdf' },
    );
    await expect(sent).rejects.toBeInstanceOf(SendUnconfirmedError);
    await expect(sent).rejects.toThrow(/media upload did not finish within 0.6 s/);
    expect(Date.now() - started).toBeLessThan(5000);
    net.unansweredIqs.clear();
  });
});
