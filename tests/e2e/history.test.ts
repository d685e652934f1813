import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveMessage } from '#shared/messages/repository';
import { api, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { NO_MEDIA } from '../support/message-fixtures.ts';
import { must } from '../support/must.ts';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
type Session = Awaited<ReturnType<typeof readySession>>;

const inbound = simInbound;

const viewCount = async (t: Tenant, query: string, n: number) =>
  waitFor(
    async () => {
      const r = await t.api.get(`/view/messages/v1?${query}`);
      return r.body.count >= n ? r.body : undefined;
    },
    20_000,
    `${n} messages for ${query}`,
  );

const readable = (digits: string) =>
  must(parsePhoneNumberFromString(`+${digits}`), `a phone number in +${digits}`).formatInternational();

const photo = fixtures.png();
const note = fixtures.ogg();
let server: Awaited<ReturnType<typeof mediaServer>>;
let t: Tenant;
let s: Session;
let s2: Session;
const ids = { asha: '', bob: '', lid: '', image: '', voice: '', reply: '', other: '' };

beforeAll(async () => {
  server = await mediaServer({ 'photo.png': photo, 'note.ogg': note });
  t = await newTenant();
  [s, s2] = await Promise.all([readySession(t.api, 'clinic'), readySession(t.api, 'shop')]);
  // In order, so that timestamps order them.
  ids.asha = await inbound({
    sessionId: s.sessionId,
    from: '919876543210',
    name: 'Asha',
    text: 'Is the clinic open?',
  });
  ids.bob = await inbound({ sessionId: s.mobid, from: '14155550123', name: 'Bob', text: 'Hello from SF' });
  ids.lid = await inbound({
    sessionId: s.sessionId,
    from: '919812345678',
    name: 'Meera',
    text: 'via lid',
    lid: true,
  });
  ids.image = await inbound({
    sessionId: s.sessionId,
    from: '919876543210',
    name: 'Asha',
    type: 'image',
    text: 'My report',
    mediaUrl: server.url('photo.png'),
    mimetype: 'image/png',
  });
  ids.voice = await inbound({
    sessionId: s.sessionId,
    from: '14155550123',
    name: 'Bob',
    type: 'voice',
    mediaUrl: server.url('note.ogg'),
    mimetype: 'audio/ogg',
  });
  await viewCount(t, `sessionId=${s.sessionId}`, 5);
  const sent = await t.api.post('/api/messages/send', {
    sessionId: s.mobid,
    to: '919876543210',
    message: 'Yes, until 6pm',
  });
  expect(sent.status).toBe(202);
  ids.reply = sent.body.messageId;
  ids.other = await inbound({
    sessionId: s2.sessionId,
    from: '919876543210',
    name: 'Asha',
    text: 'Do you sell masks?',
  });
  await viewCount(t, '', 7);
}, 60_000);
afterAll(() => server.close());

describe('GET /view/messages/v1', () => {
  it('answers the live envelope with defaults, newest first', async () => {
    const r = await t.api.get('/view/messages/v1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      filter: { sessionId: 'all', phone: null, jid: null, type: 'all' },
      count: 7,
    });
    expect(r.body.messages.map((m: { id: string }) => m.id)).toEqual([
      ids.other,
      ids.reply,
      ids.voice,
      ids.image,
      ids.lid,
      ids.bob,
      ids.asha,
    ]);
    const byId = Object.fromEntries(r.body.messages.map((m: { id: string }) => [m.id, m]));
    expect(byId[ids.asha]).toEqual({
      id: ids.asha,
      from: '919876543210@s.whatsapp.net',
      chat: '919876543210@s.whatsapp.net',
      senderName: 'Asha',
      text: 'Is the clinic open?',
      timestamp: expect.any(Number),
      fromMe: false,
      direction: 'inbound',
      sessionId: s.sessionId,
      type: 'text',
      status: 'delivered',
      reason: null,
      // The media fields the console's Inbox shows (docs/api.md), none for a text.
      mediaUrl: null,
      mimetype: null,
      fileName: null,
      transcription: null,
      ocrText: null,
    });
    expect(Math.abs(byId[ids.asha].timestamp - Date.now() / 1000)).toBeLessThan(120);
    expect(byId[ids.reply]).toMatchObject({
      from: `${s.mobile_number}@s.whatsapp.net`,
      chat: '919876543210@s.whatsapp.net',
      fromMe: true,
      direction: 'outbound',
      text: 'Yes, until 6pm',
    });
    // A LID sender is shown by the phone number the network revealed for it.
    expect(byId[ids.lid]).toMatchObject({ from: '919812345678@s.whatsapp.net', senderName: 'Meera' });
    expect(byId[ids.image]).toMatchObject({ type: 'image', text: 'My report' });
    expect(byId[ids.voice]).toMatchObject({ type: 'voice', text: '[Voice note]' });
  });

  it('filters by phone (with or without country code), session, direction and limit', async () => {
    const bySession = await t.api.get(`/view/messages/v1?phone=9876543210&sessionId=${s.mobid}`);
    expect(bySession.body.filter).toEqual({
      sessionId: s.mobid,
      phone: '9876543210',
      jid: '919876543210@s.whatsapp.net',
      type: 'all',
    });
    expect(bySession.body.messages.map((m: { id: string }) => m.id)).toEqual([
      ids.reply,
      ids.image,
      ids.asha,
    ]);

    const everywhere = await t.api.get('/view/messages/v1?number=%2B91%2098765%2043210');
    expect(everywhere.body.count).toBe(4);

    const inboundOnly = await t.api.get(
      `/view/messages/v1?phone=919876543210&type=inbound&sessionId=${s.sessionId}`,
    );
    expect(inboundOnly.body.messages.map((m: { id: string }) => m.id)).toEqual([ids.image, ids.asha]);

    const outboundOnly = await t.api.get('/view/messages/v1?type=outbound');
    expect(outboundOnly.body.messages.map((m: { id: string }) => m.id)).toEqual([ids.reply]);

    const lidByPhone = await t.api.get('/view/messages/v1?phone=919812345678');
    expect(lidByPhone.body.messages.map((m: { id: string }) => m.id)).toEqual([ids.lid]);

    const two = await t.api.get('/view/messages/v1?limit=2');
    expect(two.body.count).toBe(2);
    expect(two.body.messages.map((m: { id: string }) => m.id)).toEqual([ids.other, ids.reply]);

    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['type=sent', 'type'],
      ['phone=12', 'phone'],
    ]) {
      const bad = await t.api.get(`/view/messages/v1?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error.message.startsWith(`${field}:`), bad.body.error.message).toBe(true);
    }
    expect((await t.api.get('/view/messages/v1?sessionId=nope')).status).toBe(404);
  });

  it('accepts an API key or token in the query instead of a Bearer header', async () => {
    expect((await api().get('/view/messages/v1')).status).toBe(401);
    const byKey = await api().get(`/view/messages/v1?key=${t.apiKey}&limit=1`);
    expect(byKey.status).toBe(200);
    expect(byKey.body.messages[0].id).toBe(ids.other);
    expect((await api().get(`/view/messages/v1?apiKey=${t.apiKey}&limit=1`)).status).toBe(200);
    expect((await api().get(`/view/messages/v1?key=${t.token}&limit=1`)).status).toBe(200);
    expect((await api().get('/view/messages/v1?key=wsm_wrong')).status).toBe(401);
    // Another tenant sees nothing of this one.
    const other = await newTenant();
    expect((await other.api.get('/view/messages/v1')).body.count).toBe(0);
  });
});

describe('GET /api/v1/formatted', () => {
  it('shows one chat oldest first with readable numbers', async () => {
    const r = await t.api.get(`/api/v1/formatted?mobid=${s.mobid}&chatId=919876543210`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, chatId: '+91 98765 43210', total: 3 });
    const me = readable(s.mobile_number);
    expect(r.body.messages.map((m: { id: string }) => m.id)).toEqual([ids.asha, ids.image, ids.reply]);
    expect(r.body.messages[0]).toEqual({
      id: ids.asha,
      from: '+91 98765 43210',
      to: me,
      sender_name: 'Asha',
      message: 'Is the clinic open?',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      status: 'delivered',
      direction: 'inbound',
      type: 'text',
    });
    expect(r.body.messages[2]).toMatchObject({
      from: me,
      to: '+91 98765 43210',
      sender_name: 'clinic',
      message: 'Yes, until 6pm',
      status: expect.stringMatching(/^(queued|sent|delivered|read)$/),
    });

    const national = await t.api.get(
      `/api/v1/formatted?mobid=${s.mobile_number}&chatId=98765%2043210&limit=1`,
    );
    expect(national.body).toMatchObject({ chatId: '+91 98765 43210', total: 1 });
    expect(national.body.messages[0].id).toBe(ids.reply);

    const us = await t.api.get(`/api/v1/formatted?mobid=${s.sessionId}&chatId=%2B1%20415%20555%200123`);
    expect(us.body.chatId).toBe('+1 415 555 0123');
    expect(us.body.messages.map((m: { from: string }) => m.from)).toEqual([
      '+1 415 555 0123',
      '+1 415 555 0123',
    ]);

    const lid = await t.api.get(`/api/v1/formatted?mobid=${s.mobid}&chatId=919812345678`);
    expect(lid.body).toMatchObject({ chatId: '+91 98123 45678', total: 1 });
    expect(lid.body.messages[0]).toMatchObject({ from: '+91 98123 45678', sender_name: 'Meera' });
  });

  it('without chatId, lists the latest message of each recent chat', async () => {
    const r = await t.api.get(`/api/v1/formatted?mobid=${s.mobid}`);
    expect(r.body).toMatchObject({ success: true, chatId: 'all', total: 3 });
    expect(r.body.messages.map((m: { id: string }) => m.id)).toEqual([ids.reply, ids.voice, ids.lid]);
    expect(r.body.messages[2].from).toBe('+91 98123 45678');
  });

  it('validates its query', async () => {
    const missing = await t.api.get('/api/v1/formatted');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^mobid:/);
    expect((await t.api.get('/api/v1/formatted?mobid=000000000000000')).status).toBe(404);
    expect((await t.api.get(`/api/v1/formatted?mobid=${s.mobid}&chatId=hello`)).status).toBe(400);
    expect((await api().get(`/api/v1/formatted?mobid=${s.mobid}`)).status).toBe(401);
  });
});

describe('GET /api/public/portal/{portal_id}/live-messages', () => {
  it('answers stream payloads, inbound by default, with msgType and limit filters', async () => {
    const r = await api().get(`/api/public/portal/${t.portalId}/live-messages`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, portal_id: t.portalId, count: 6 });
    expect(r.body.messages.every((m: { event: string }) => m.event === 'message:inbound')).toBe(true);
    const asha = r.body.messages.find((m: { messageId: string }) => m.messageId === ids.asha);
    expect(asha).toEqual({
      event: 'message:inbound',
      sessionId: s.sessionId,
      messageId: ids.asha,
      sender: '919876543210',
      sender_name: 'Asha',
      type: 'text',
      message: 'Is the clinic open?',
      timestamp: expect.any(Number),
      media: NO_MEDIA,
    });
    expect(asha.timestamp).toBeGreaterThan(Date.now() - 120_000);
    const lid = r.body.messages.find((m: { messageId: string }) => m.messageId === ids.lid);
    expect(lid.sender).toBe('919812345678');

    const images = await api().get(`/api/public/portal/${t.portalId}/live-messages?msgType=image`);
    expect(images.body.count).toBe(1);
    expect(images.body.messages[0]).toMatchObject({
      messageId: ids.image,
      type: 'image',
      message: 'My report',
      media: { hasMedia: true, mediaUrl: expect.stringMatching(/^https?:\/\//) },
    });
    const fetched = await fetch(images.body.messages[0].media.mediaUrl);
    expect(fetched.status).toBe(200);

    const audio = await api().get(`/api/public/portal/${t.portalId}/live-messages?msgType=audio`);
    expect(audio.body.messages.map((m: { messageId: string }) => m.messageId)).toEqual([ids.voice]);

    const outbound = await api().get(`/api/public/portal/${t.portalId}/live-messages?type=outbound`);
    expect(outbound.body.messages).toHaveLength(1);
    expect(outbound.body.messages[0]).toMatchObject({
      event: 'message:outbound',
      messageId: ids.reply,
      sender: s.mobile_number,
    });

    const all = await api().get(`/api/public/portal/${t.portalId}/live-messages?type=all&limit=3`);
    expect(all.body.messages.map((m: { messageId: string }) => m.messageId)).toEqual([
      ids.other,
      ids.reply,
      ids.voice,
    ]);

    expect((await api().get('/api/public/portal/prt_0000000000/live-messages')).status).toBe(404);
    expect((await api().get('/api/public/portal/nope/live-messages')).status).toBe(400);
    expect((await api().get(`/api/public/portal/${t.portalId}/live-messages?msgType=video`)).status).toBe(
      400,
    );
  });
});

describe('defaults and unresolved LIDs', () => {
  it('applies the default limits (50 view, 20 formatted, 50 live)', async () => {
    const u = await newTenant();
    const busy = await readySession(u.api);
    await Promise.all(
      Array.from({ length: 55 }, (_, i) =>
        inbound({ sessionId: busy.sessionId, from: '919700000001', name: 'Busy', text: `message ${i}` }),
      ),
    );
    await viewCount(u, 'limit=100', 55);
    expect((await u.api.get('/view/messages/v1')).body.count).toBe(50);
    const f = await u.api.get(`/api/v1/formatted?mobid=${busy.mobid}&chatId=919700000001`);
    expect(f.body.total).toBe(20);
    const times = f.body.messages.map((m: { timestamp: string }) => Date.parse(m.timestamp));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect((await api().get(`/api/public/portal/${u.portalId}/live-messages`)).body.count).toBe(50);
    expect((await u.api.get('/view/messages/v1?limit=100000')).body.count).toBe(55);
  });

  it('never shows an unresolved LID as a phone number', async () => {
    const u = await newTenant();
    const ses = await readySession(u.api);
    const lid = '204857392018475';
    await saveMessage({
      tenantId: u.id,
      sessionId: ses.sessionId,
      messageId: 'LIDONLY0001',
      direction: 'inbound',
      chatId: `${lid}@lid`,
      senderPhone: null,
      senderLid: lid,
      senderName: 'Unknown',
      kind: 'text',
      text: 'who am I',
      status: 'delivered',
      timestampMs: Date.now(),
      statusAt: Date.now(),
    });
    const view = await u.api.get('/view/messages/v1');
    expect(view.body.messages[0]).toMatchObject({ from: `${lid}@lid`, chat: `${lid}@lid` });
    const formatted = await u.api.get(`/api/v1/formatted?mobid=${ses.mobid}&chatId=${lid}@lid`);
    expect(formatted.body).toMatchObject({ chatId: `lid:${lid}`, total: 1 });
    expect(formatted.body.messages[0]).toMatchObject({ from: `lid:${lid}`, to: readable(ses.mobile_number) });
    const live = await api().get(`/api/public/portal/${u.portalId}/live-messages`);
    expect(live.body.messages[0].sender).not.toMatch(/^\d+$/);
  });
});
