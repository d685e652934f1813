import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { outboxWith } from '../support/outbox.ts';

const media = {
  photo: fixtures.png(),
  brochure: fixtures.pdf(),
  leads: fixtures.text(),
  song: fixtures.mp3(),
  clip: fixtures.mp4(),
  note: fixtures.ogg(),
};
let server: Awaited<ReturnType<typeof mediaServer>>;

beforeAll(async () => {
  server = await mediaServer({
    'photo.png': media.photo,
    'brochure.pdf': media.brochure,
    'leads.csv': media.leads,
    'song.mp3': media.song,
    'clip.mp4': media.clip,
    'note.ogg': media.note,
  });
});
afterAll(() => server.close());

describe('POST /api/messages/send', () => {
  it('delivers every type, in order, with the right bytes, caption and file name', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const to = '+91 98765-43210';
    const bodies = [
      { sessionId: s.mobid, to, message: 'Hello there' },
      { sessionId: s.sessionId, to, type: 'image', url: server.url('photo.png'), caption: 'Our shop' },
      {
        sessionId: s.mobile_number,
        to,
        type: 'pdf',
        media_url: server.url('brochure.pdf'),
        fileName: 'Brochure.pdf',
      },
      {
        sessionId: s.mobid,
        to,
        type: 'document',
        url: server.url('leads.csv'),
        fileName: 'leads.csv',
        caption: 'Leads',
      },
      { sessionId: s.mobid, to, type: 'audio', url: server.url('song.mp3') },
      { sessionId: s.mobid, to, type: 'video', url: server.url('clip.mp4'), caption: 'Tour' },
      { sessionId: s.mobid, to, type: 'voice', url: server.url('note.ogg'), duration: 7 },
      { sessionId: s.mobid, to, type: 'voice', url: server.url('note.ogg') },
      {
        sessionId: s.mobid,
        to,
        type: 'buttons',
        text: 'Book a visit?',
        buttons: [
          { id: 'yes', title: 'Yes' },
          { id: 'no', title: 'No' },
        ],
      },
    ];
    const ids: string[] = [];
    for (const body of bodies) {
      const r = await t.api.post('/api/messages/send', body);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body).toEqual({
        success: true,
        messageId: expect.stringMatching(/^3EB0[0-9A-F]{16}$/),
        status: 'queued',
        sessionId: s.sessionId,
        to: '919876543210',
      });
      ids.push(r.body.messageId);
    }

    const out = await outboxWith(s.sessionId, bodies.length, 40_000);
    expect(out.map((m) => m.id)).toEqual(ids);
    expect(out.every((m) => m.to === '919876543210')).toBe(true);
    const [text, image, pdf, doc, audio, video, voice, voiceDefault, buttons] = out;
    expect(text).toMatchObject({ type: 'text', text: 'Hello there' });
    expect(image).toMatchObject({ type: 'image', caption: 'Our shop', sha256: media.photo.sha256 });
    expect(pdf).toMatchObject({
      type: 'document',
      fileName: 'Brochure.pdf',
      mimetype: 'application/pdf',
      sha256: media.brochure.sha256,
    });
    expect(doc).toMatchObject({
      type: 'document',
      fileName: 'leads.csv',
      caption: 'Leads',
      sha256: media.leads.sha256,
    });
    expect(audio).toMatchObject({ type: 'audio', sha256: media.song.sha256 });
    expect(video).toMatchObject({ type: 'video', caption: 'Tour', sha256: media.clip.sha256 });
    expect(voice).toMatchObject({ type: 'voice', durationMs: 7000, sha256: media.note.sha256 });
    expect(voiceDefault).toMatchObject({ type: 'voice', durationMs: 5000 });
    expect(buttons).toMatchObject({ type: 'buttons', text: 'Book a visit?' });

    // The same ids are the history's, and move on from queued once the network has them.
    await waitFor(
      async () => {
        const h = await t.api.get(`/view/messages/v1?sessionId=${s.sessionId}&type=outbound&limit=20`);
        return (
          h.body.count === bodies.length &&
          h.body.messages.every((m: { status: string }) => m.status !== 'queued')
        );
      },
      15_000,
      'statuses past queued',
    );
  });

  it('sends a stored template with its parameters substituted, as text, media or buttons', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);

    const created = await t.api.post('/api/templates', {
      name: 'appointment',
      body: 'Hi {{1}}, your visit is on {{2}}. Reply {{1}}!',
    });
    expect(created.status).toBe(201);
    expect(created.body.template).toMatchObject({
      name: 'appointment',
      language: 'en',
      placeholders: [1, 2],
    });
    await t.api.post('/api/templates', {
      name: 'offer',
      body: 'Offer for {{1}}',
      header: { type: 'image', url: server.url('photo.png') },
    });
    await t.api.post('/api/templates', {
      name: 'confirm',
      body: 'Confirm {{1}}?',
      buttons: [
        { id: 'ok', title: 'Confirm' },
        { id: 'later', title: 'Later' },
      ],
    });
    const list = await t.api.get('/api/templates');
    expect(list.body.templates.map((x: { name: string }) => x.name).sort()).toEqual([
      'appointment',
      'confirm',
      'offer',
    ]);

    const send = (text: string, params?: unknown[]) =>
      t.api.post('/api/messages/send', {
        sessionId: s.mobid,
        to: '14155550123',
        type: 'template',
        text,
        params,
      });
    expect((await send('appointment', ['Asha', 'Monday'])).status).toBe(202);
    expect((await send('offer', ['Ravi'])).status).toBe(202);
    expect((await send('confirm', [42])).status).toBe(202);

    const missing = await send('appointment', ['Asha']);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    expect(missing.body.error.message).toMatch(/^params: .*\{\{2\}\}.*params\[1\]/);

    const unknown = await send('nope', []);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('TEMPLATE_NOT_FOUND');

    const out = await outboxWith(s.sessionId, 3);
    expect(out[0]).toMatchObject({ type: 'text', text: 'Hi Asha, your visit is on Monday. Reply Asha!' });
    expect(out[1]).toMatchObject({ type: 'image', caption: 'Offer for Ravi', sha256: media.photo.sha256 });
    expect(out[2]).toMatchObject({ type: 'buttons', text: 'Confirm 42?' });

    expect((await t.api.delete('/api/templates/appointment')).status).toBe(200);
    const gone = await send('appointment', ['Asha', 'Monday']);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    expect((await t.api.delete('/api/templates/appointment')).status).toBe(404);

    // Templates are per tenant.
    const other = await newTenant();
    expect((await other.api.get('/api/templates')).body.templates).toEqual([]);
  });

  it('answers 400 naming the field for invalid bodies', async () => {
    const t = await newTenant();
    const cases: Array<[unknown, string]> = [
      [{ to: '919876543210', message: 'x' }, 'sessionId'],
      [{ sessionId: 's', message: 'x' }, 'to'],
      [{ sessionId: 's', to: 'abc', message: 'x' }, 'to'],
      [{ sessionId: 's', to: '919876543210' }, 'message'],
      [{ sessionId: 's', to: '919876543210', type: 'sticker', message: 'x' }, 'url'],
      [{ sessionId: 's', to: '919876543210', type: 'image' }, 'url'],
      [{ sessionId: 's', to: '919876543210', type: 'voice', url: 'ftp://host/a.ogg' }, 'url'],
      [{ sessionId: 's', to: '919876543210', type: 'video', media_url: 'not a url' }, 'media_url'],
      [
        { sessionId: 's', to: '919876543210', type: 'voice', url: 'https://x.test/a.ogg', duration: -1 },
        'duration',
      ],
      [{ sessionId: 's', to: '919876543210', type: 'template' }, 'text'],
      [{ sessionId: 's', to: '919876543210', type: 'buttons', text: 'Pick' }, 'buttons'],
      [{ sessionId: 's', to: '919876543210', type: 'template', text: 'a', params: 'x' }, 'params'],
    ];
    for (const [body, field] of cases) {
      const r = await t.api.post('/api/messages/send', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error.code).toBe('VALIDATION_FAILED');
      expect(
        r.body.error.message.startsWith(`${field}:`),
        `${JSON.stringify(body)} → ${r.body.error.message}`,
      ).toBe(true);
    }
    const malformed = await t.api.post('/api/messages/send', '{"sessionId":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('MALFORMED_JSON');
    expect((await api().post('/api/messages/send', { sessionId: 's', to: '1', message: 'x' })).status).toBe(
      401,
    );
  });

  it('answers 404 for an unknown sender and 422 for one that is not READY', async () => {
    const t = await newTenant();
    const body = { to: '919876543210', message: 'hi' };
    const unknown = await t.api.post('/api/messages/send', { ...body, sessionId: '999999999999999' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('SESSION_NOT_FOUND');

    const s = await readySession(t.api);
    const other = await newTenant();
    expect((await other.api.post('/api/messages/send', { ...body, sessionId: s.mobid })).status).toBe(404);

    await t.api.delete(`/api/sessions/${s.sessionId}`);
    const notReady = await t.api.post('/api/messages/send', { ...body, sessionId: s.mobid });
    expect(notReady.status).toBe(422);
    expect(notReady.body.error.code).toBe('SESSION_NOT_READY');

    // None of the refused sends counted against the quota.
    const usage = await t.api.get(`/api/sessions/usage/${s.mobid}`);
    expect(usage.body.usage).toBe(0);
  });
});
