import { describe, expect, it } from 'vitest';
import { api, messageStored, newTenant, readySession, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { must } from '../support/must.ts';
import { outboxWith } from '../support/outbox.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const sim = api();

/** A new tenant with its webhook pointed at a fresh receiver and a READY session; the caller closes `hook`. */
async function hookedSession() {
  const t = await newTenant();
  const hook = await startReceiver();
  try {
    await webhookTo(t.api, hook);
    return { t, hook, s: await readySession(t.api) };
  } catch (err) {
    await hook.close();
    throw err;
  }
}

describe('outbound delivery', () => {
  it('moves a message queued → sent → delivered → read, in history and on the webhook', async () => {
    const { t, hook, s } = await hookedSession();
    try {
      const sent = await t.api.post('/api/messages/send', {
        sessionId: s.sessionId,
        to: '919822200001',
        text: 'Your slot is 10:30',
      });
      expect(sent.status).toBe(202);
      const id = sent.body.messageId;
      await outboxWith(s.sessionId, 1);
      const status = async () => {
        const r = await t.api.get(`/api/v1/formatted?mobid=${s.mobid}&chatId=919822200001`);
        return r.body.messages.find((m: { id: string }) => m.id === id)?.status;
      };
      await waitFor(async () => (await status()) === 'sent', 10_000, 'sent');
      expect(
        (await sim.post('/_sim/receipt', { sessionId: s.sessionId, messageId: id, status: 'delivered' }))
          .status,
      ).toBe(200);
      await waitFor(async () => (await status()) === 'delivered', 10_000, 'delivered');
      await sim.post('/_sim/receipt', { sessionId: s.sessionId, messageId: id, status: 'read' });
      await waitFor(async () => (await status()) === 'read', 10_000, 'read');
      // A late "delivered" after "read" changes nothing. The reply after it reaches the link after it
      // and is applied after it: once the reply is stored, the receipt has been dealt with.
      await sim.post('/_sim/receipt', { sessionId: s.sessionId, messageId: id, status: 'delivered' });
      const reply = await sim.post('/_sim/inbound', {
        sessionId: s.sessionId,
        from: '919822200001',
        text: 'Thanks',
      });
      await messageStored(t.api, reply.body.messageId);
      expect(await status()).toBe('read');

      const events = await waitFor(async () => {
        const e = hook.of('message.status', id).map((r) => r.json.status);
        return e.length >= 3 ? e : undefined;
      });
      expect(events).toEqual(['sent', 'delivered', 'read']);
      const statusDeliveries = (await t.api.get('/api/webhook/deliveries')).body.deliveries.filter(
        (d: { event: string; payload?: { message_id?: string } }) =>
          d.event === 'message.status' && d.payload?.message_id === id,
      );
      expect(statusDeliveries).toHaveLength(3);
    } finally {
      await hook.close();
    }
  });

  it('fails a message whose media cannot be fetched, with the reason on the webhook', async () => {
    const media = await mediaServer({});
    const { t, hook, s } = await hookedSession();
    try {
      const sent = await t.api.post('/api/messages/send', {
        sessionId: s.sessionId,
        to: '919822200002',
        type: 'image',
        url: media.url('missing.png'),
      });
      expect(sent.status).toBe(202);
      const failed = await waitFor(async () => hook.of('message.status', sent.body.messageId)[0]?.json);
      expect(failed).toMatchObject({ status: 'failed', reason: expect.stringContaining('404') });
      const r = await t.api.get(`/api/v1/formatted?mobid=${s.mobid}&chatId=919822200002`);
      expect(r.body.messages.find((x: { id: string }) => x.id === sent.body.messageId)?.status).toBe(
        'failed',
      );
      expect((await sim.get(`/_sim/outbox?sessionId=${s.sessionId}`)).body.messages).toEqual([]);
    } finally {
      await media.close();
      await hook.close();
    }
  });

  it('converts a voice note to OGG/Opus with ffmpeg before sending', async () => {
    const t = await newTenant();
    const wav = fixtures.wav(1);
    const media = await mediaServer({ 'note.wav': wav });
    try {
      const s = await readySession(t.api);
      const sent = await t.api.post('/api/messages/send', {
        sessionId: s.sessionId,
        to: '919822200003',
        type: 'voice',
        url: media.url('note.wav'),
        duration: 1,
      });
      expect(sent.status).toBe(202);
      const [voice] = await outboxWith(s.sessionId, 1);
      expect(voice).toMatchObject({ type: 'voice', mimetype: 'audio/ogg; codecs=opus', durationMs: 1000 });
      expect(voice?.sha256).not.toBe(wav.sha256);
    } finally {
      await media.close();
    }
  });

  it('paces a burst from one session instead of refusing it', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.api.post('/api/messages/send', { sessionId: s.sessionId, to: '919822200004', text: `burst ${i}` }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    const out = await outboxWith(s.sessionId, 5);
    const gaps = out.slice(1).map((m, i) => m.at - must(out[i], 'out[i]').at);
    // SEND_INTERVAL_MS is 50 in tests, with ±20 % jitter: at least 40 ms between the host's sends.
    // The network notes each one when it arrives, so a gap seen there also carries the difference
    // of two trips to it (a few ms on a busy machine): none is a burst, and together they are paced.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(20);
    expect(gaps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(4 * 40 - 10);
  });
});
