import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { outbox } from '../support/outbox.ts';

/**
 * Voice replies: with the `voiceReplies` switch on, a customer who wrote by voice gets the answer as
 * a voice note spoken on the host (espeak-ng → OGG/Opus), after a `recording` presence; text gets text.
 * What the customer said is the voice note's transcription (the fake speech provider reads the words
 * written in the audio: tests/support/fake-speech.ts).
 */
const sim = api();
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  const note = fixtures.ogg(512);
  media = await mediaServer({
    'note.ogg': { ...note, bytes: Buffer.concat([note.bytes, Buffer.from('SAY:what are your hours;')]) },
  });
});
afterAll(async () => media?.close());

describe('chatbot voice replies', () => {
  it('answers a voice note with a voice note when voiceReplies is on, a text with a text', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const rule = await t.api.post('/api/v1/chatbot/rules', {
      mobid: '*',
      triggerType: 'contains',
      keyword: 'hours',
      replyType: 'text',
      response: 'We are open from nine to five.',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBeLessThan(300);
    const on = await t.api.post('/api/v1/chatbot/voice-replies', { enabled: true, sessionKey: s.sessionId });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ success: true, enabled: true, sessionKey: s.sessionId });
    const switches = await t.api.get(`/api/v1/chatbot/switches?sessionKey=${s.sessionId}`);
    expect(switches.body.voiceReplies).toBe(true);

    const voiceFrom = '919811700001';
    const r = await sim.post('/_sim/inbound', {
      sessionId: s.sessionId,
      from: voiceFrom,
      type: 'voice',
      mediaUrl: media.url('note.ogg'),
      mimetype: 'audio/ogg',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const spoken = await waitFor(
      async () => (await outbox(s.sessionId)).find((m) => m.to.startsWith(voiceFrom)),
      60_000,
      'the voice reply',
    );
    expect(spoken.type).toBe('voice');
    expect(spoken.mimetype).toMatch(/^audio\/ogg/);
    expect(spoken.durationMs).toBeGreaterThanOrEqual(1000);
    expect(spoken.presence.map((p) => p.type)).toContain('recording');

    const textFrom = '919811700002';
    await sim.post('/_sim/inbound', { sessionId: s.sessionId, from: textFrom, text: 'your hours?' });
    const written = await waitFor(
      async () => (await outbox(s.sessionId)).find((m) => m.to.startsWith(textFrom)),
      30_000,
      'the text reply',
    );
    expect(written).toMatchObject({ type: 'text', text: 'We are open from nine to five.' });
  }, 90_000);
});
