import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMessage, saveMessage } from '#shared/messages/repository';
import { sentWire } from '../../connection-host/drivers/baileys/outbound.ts';
import type { DriverLink } from '../../connection-host/drivers/driver.ts';
import { loadSentMedia, saveSentMedia } from '../../connection-host/sent-media.ts';
import {
  type DriverNetwork,
  linkThenLogin,
  recorder,
  startShopNetwork,
} from '../support/baileys-driver-rig.ts';
import type { FakeUser } from '../support/fake-network/index.ts';
import { must } from '../support/must.ts';

/**
 * Retry requests after a restart: the peer's phone cannot decrypt a message we sent and asks for
 * it again. Baileys rebuilds it through our getMessage from what the host stored in DynamoDB (the
 * message record, and for media the message as first sent: the upload reference), on a link that
 * never sent it (a fresh connect, as after a host restart).
 */

const TENANT = 't-retry';
let rig: DriverNetwork;
let me: FakeUser;
let asha: FakeUser;
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const sessionId = `s-${randomBytes(4).toString('hex')}`;

/** The host's getMessage / rememberSentMedia (connection-host/host.ts), on the same store. */
const driver = () =>
  rig.driver({
    async getMessage(sid, id) {
      const [m, wire] = await Promise.all([getMessage(TENANT, sid, id), loadSentMedia(TENANT, sid, id)]);
      return m && wire ? { ...m, wire } : m;
    },
    rememberSentMedia: (sid, id, wire) => saveSentMedia(TENANT, sid, id, wire),
  });

const outbound = (messageId: string, kind: string, extra: Record<string, string>) =>
  saveMessage({
    tenantId: TENANT,
    sessionId,
    messageId,
    direction: 'outbound',
    chatId: '14155550133',
    senderPhone: '919876543233',
    kind,
    ...extra,
    status: 'sent',
    timestampMs: Date.now(),
    statusAt: Date.now(),
  });

beforeAll(async () => {
  ({ rig, me, asha } = await startShopNetwork('brt', { me: '919876543233', asha: '14155550133' }));
});

afterAll(async () => {
  await rig?.close();
});

describe('retry requests answered from the store after a restart', () => {
  let link: DriverLink;

  it('links, then connects again from the stored creds (a fresh link, nothing in memory)', async () => {
    const request = { tenantId: TENANT, sessionId, method: 'qr' as const };
    const { link: second, opened, device } = await linkThenLogin(driver(), request, me);
    expect(opened.opens).toEqual(['919876543233']);
    await second.close();
    await poll(() => device.link).toBeUndefined();
    const rec = recorder();
    link = await driver().connect(request, rec.events);
    await poll(() => rec.opens).toEqual(['919876543233']);
    await poll(() => device.online).toBe(true);
  });

  it('a media message is sent again with the same upload reference, from the stored record', async () => {
    const image = {
      url: 'https://mmg.example.net/v/t62.7118-24/abc.enc',
      directPath: '/v/t62.7118-24/abc.enc?ccb=11-4',
      mediaKey: randomBytes(32),
      fileEncSha256: randomBytes(32),
      fileSha256: randomBytes(32),
      fileLength: 48_213,
      mimetype: 'image/jpeg',
      caption: 'Our new menu',
      width: 800,
      height: 600,
    };
    const wire = sentWire({
      imageMessage: image,
      messageContextInfo: { messageSecret: randomBytes(32) },
    });
    expect(wire).toBeDefined();
    const id = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    await outbound(id, 'image', { caption: 'Our new menu', mimetype: 'image/jpeg' });
    await saveSentMedia(TENANT, sessionId, id, must(wire, 'wire'));

    asha.requestRetry(me, id);
    await poll(() => asha.received.filter((m) => m.id === id).length).toBe(1);
    const again = asha.received.find((m) => m.id === id)?.message?.imageMessage;
    expect(again?.url).toBe(image.url);
    expect(again?.directPath).toBe(image.directPath);
    expect(Buffer.from(again?.mediaKey ?? []).equals(image.mediaKey)).toBe(true);
    expect(Buffer.from(again?.fileEncSha256 ?? []).equals(image.fileEncSha256)).toBe(true);
    expect(again?.caption).toBe('Our new menu');
    expect(again?.mimetype).toBe('image/jpeg');
    expect(Number(again?.fileLength)).toBe(48_213);
  });

  it('a text is sent again from its record; a media message without its stored form is not sent at all', async () => {
    const textId = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    await outbound(textId, 'text', { text: 'your table is ready' });
    asha.requestRetry(me, textId);
    await poll(() => asha.received.find((m) => m.id === textId)?.text).toBe('your table is ready');

    const bare = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    await outbound(bare, 'video', { mimetype: 'video/mp4' });
    asha.requestRetry(me, bare);
    const marker = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    await outbound(marker, 'text', { text: 'marker' });
    asha.requestRetry(me, marker);
    await poll(() => asha.received.some((m) => m.id === marker)).toBe(true);
    // Retries are answered in order: the one before the marker was dropped, not merely late.
    expect(asha.received.some((m) => m.id === bare)).toBe(false);
    await link.close();
  });
});
