import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMessage } from '#shared/messages/repository';
import { api, commandFinished, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';

type Client = ReturnType<typeof api>;

/** What the session's device did at the simulated network besides sending. */
const activity = async (sessionId: string) => (await api().get(`/_sim/activity?sessionId=${sessionId}`)).body;

/** Waits until the host has stored an inbound message (with or without its media analysis done). */
const stored = (tenantId: string, sessionId: string, id: string) =>
  waitFor(() => getMessage(tenantId, sessionId, id), 15_000, `message ${id} stored`);

let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  media = await mediaServer({ 'note.ogg': fixtures.ogg() });
});
afterAll(() => media.close());

describe('POST /api/messages/read', () => {
  it("marks the chat's received messages read, voice notes played, or only the ones named", async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const from = '919811800001';
    const text = await simInbound({ sessionId: s.sessionId, from, text: 'hello' });
    const voice = await simInbound({
      sessionId: s.sessionId,
      from,
      type: 'voice',
      mediaUrl: media.url('note.ogg'),
      mimetype: 'audio/ogg',
    });
    const other = await simInbound({ sessionId: s.sessionId, from: '919811800002', text: 'another chat' });
    for (const id of [text, voice, other]) await stored(t.id, s.sessionId, id);

    const all = await t.api.post('/api/messages/read', { sessionId: s.mobid, chatId: `+${from}` });
    expect(all.status, JSON.stringify(all.body)).toBe(202);
    expect(all.body).toMatchObject({ success: true, status: 'pending' });
    expect(await commandFinished(t.api, all.body.commandId)).toMatchObject({ status: 'succeeded' });

    const named = await t.api.post('/api/messages/read', {
      sessionId: s.sessionId,
      chatId: from,
      messageIds: [text],
    });
    expect(named.status, JSON.stringify(named.body)).toBe(202);
    expect(await commandFinished(t.api, named.body.commandId)).toMatchObject({ status: 'succeeded' });

    const { reads } = await activity(s.sessionId);
    expect(reads).toHaveLength(2);
    expect(reads[0].to).toBe(from);
    expect([...reads[0].ids].sort()).toEqual([text, voice].sort());
    expect(reads[0].played).toEqual([voice]);
    expect(reads[1]).toMatchObject({ to: from, ids: [text], played: [] });
  });

  it("another chat's, session's or tenant's message is a 404, bad input a 400 naming the field", async () => {
    const [a, b] = await Promise.all([newTenant(), newTenant()]);
    const [sa, sb] = await Promise.all([readySession(a.api), readySession(b.api)]);
    const from = '919811800003';
    const mine = await simInbound({ sessionId: sa.sessionId, from, text: 'hi' });
    await stored(a.id, sa.sessionId, mine);

    const notFound = async (client: Client, body: Record<string, unknown>) => {
      const r = await client.post('/api/messages/read', body);
      expect(r.status, JSON.stringify(r.body)).toBe(404);
      return r.body.error;
    };
    // Tenant b cannot use a's session, nor name a's message from its own session.
    expect((await notFound(b.api, { sessionId: sa.sessionId, chatId: from })).code).toBe('SESSION_NOT_FOUND');
    expect(
      (await notFound(b.api, { sessionId: sb.sessionId, chatId: from, messageIds: [mine] })).message,
    ).toMatch(/^messageIds: /);
    // The message is a's, but of another chat; a chat with nothing received.
    expect(
      (await notFound(a.api, { sessionId: sa.sessionId, chatId: '919811800009', messageIds: [mine] }))
        .message,
    ).toMatch(/^messageIds: /);
    expect((await notFound(a.api, { sessionId: sa.sessionId, chatId: '919811800009' })).message).toMatch(
      /^chatId: /,
    );

    for (const [body, field] of [
      [{ sessionId: sa.sessionId, chatId: 'nope' }, /^chatId: /],
      [{ sessionId: sa.sessionId, chatId: from, messageIds: [] }, /^messageIds: /],
      [{ chatId: from }, /^sessionId: /],
    ] as const) {
      const r = await a.api.post('/api/messages/read', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(field);
    }
    expect((await activity(sa.sessionId)).reads).toEqual([]);
  });
});

describe('POST /api/sessions/presence', () => {
  it('shows each state to the chat', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const states = ['available', 'composing', 'paused', 'recording', 'unavailable'];
    for (const state of states) {
      const r = await t.api.post('/api/sessions/presence', {
        sessionId: s.sessionId,
        chatId: '+91 98118 00004',
        state,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(await commandFinished(t.api, r.body.commandId)).toMatchObject({ status: 'succeeded' });
    }
    const { presence } = await activity(s.sessionId);
    expect(presence.map((p: { to: string; type: string }) => [p.to, p.type])).toEqual(
      states.map((st) => ['919811800004', st]),
    );
  });

  it("another tenant's session is a 404, a bad state a 400 naming it", async () => {
    const [a, b] = await Promise.all([newTenant(), newTenant()]);
    const s = await readySession(a.api);
    const other = await b.api.post('/api/sessions/presence', {
      sessionId: s.sessionId,
      chatId: '919811800005',
      state: 'composing',
    });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('SESSION_NOT_FOUND');
    const bad = await a.api.post('/api/sessions/presence', {
      sessionId: s.sessionId,
      chatId: '919811800005',
      state: 'typing',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^state: /);
    const noChat = await a.api.post('/api/sessions/presence', { sessionId: s.sessionId, state: 'paused' });
    expect(noChat.status).toBe(400);
    expect(noChat.body.error.message).toMatch(/^chatId: /);
    expect((await activity(s.sessionId)).presence).toEqual([]);
  });
});
