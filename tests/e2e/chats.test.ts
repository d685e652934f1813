import { describe, expect, it } from 'vitest';
import { getMessage } from '#shared/messages/repository';
import { type api, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';

type Client = ReturnType<typeof api>;

const stored = (tenantId: string, sessionId: string, id: string) =>
  waitFor(() => getMessage(tenantId, sessionId, id), 15_000, `message ${id} stored`);

async function send(client: Client, tenantId: string, sessionId: string, to: string, message: string) {
  const r = await client.post('/api/messages/send', { sessionId, to, message });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  await stored(tenantId, sessionId, r.body.messageId);
  return r.body.messageId as string;
}

describe('GET /api/chats', () => {
  it('lists conversations, most recent first, with last message, unread count and name, paged', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const [a, b, c] = ['919811810001', '919811810002', '919811810003'];
    // a: two received, then our reply (0 unread); b: three received (3 unread); c: one sent only.
    for (const text of ['a1', 'a2'])
      await stored(
        t.id,
        s.sessionId,
        await simInbound({ sessionId: s.sessionId, from: a, name: 'Asha', text }),
      );
    await send(t.api, t.id, s.sessionId, a, 'reply to a');
    for (const text of ['b1', 'b2', 'b3'])
      await stored(
        t.id,
        s.sessionId,
        await simInbound({ sessionId: s.sessionId, from: b, name: 'Bala', text }),
      );
    await send(t.api, t.id, s.sessionId, c, 'hello c');

    const first = await t.api.get(`/api/chats?sessionId=${s.sessionId}&limit=2`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.chats.map((x: { chatId: string }) => x.chatId)).toEqual([c, b]);
    expect(first.body.chats[0]).toMatchObject({
      kind: 'direct',
      unreadCount: 0,
      lastMessage: { text: 'hello c', direction: 'outbound', fromMe: true },
    });
    expect(first.body.chats[1]).toMatchObject({
      name: 'Bala',
      unreadCount: 3,
      lastMessage: { text: 'b3', direction: 'inbound', sender: b },
    });
    expect(typeof first.body.next).toBe('number');

    const second = await t.api.get(`/api/chats?sessionId=${s.mobid}&limit=2&before=${first.body.next}`);
    expect(second.status).toBe(200);
    expect(second.body.chats).toHaveLength(1);
    expect(second.body.chats[0]).toMatchObject({
      chatId: a,
      name: 'Asha',
      unreadCount: 0,
      lastMessage: { text: 'reply to a' },
    });
    expect(second.body.next).toBeNull();

    // Marking b read clears its count; a newer message counts again.
    const read = await t.api.post('/api/messages/read', { sessionId: s.sessionId, chatId: b });
    expect(read.status).toBe(202);
    await stored(t.id, s.sessionId, await simInbound({ sessionId: s.sessionId, from: b, text: 'b4' }));
    const after = await t.api.get(`/api/chats?sessionId=${s.sessionId}&limit=1`);
    expect(after.body.chats[0]).toMatchObject({ chatId: b, unreadCount: 1, lastMessage: { text: 'b4' } });
  });

  it("another tenant's session is a 404; bad input a 400 naming the field", async () => {
    const [x, y] = await Promise.all([newTenant(), newTenant()]);
    const s = await readySession(x.api);
    const other = await y.api.get(`/api/chats?sessionId=${s.sessionId}`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('SESSION_NOT_FOUND');
    for (const [query, field] of [
      ['', /^sessionId: /],
      [`sessionId=${s.sessionId}&limit=0`, /^limit: /],
      [`sessionId=${s.sessionId}&limit=101`, /^limit: /],
      [`sessionId=${s.sessionId}&before=soon`, /^before: /],
    ] as const) {
      const r = await x.api.get(`/api/chats?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error.message).toMatch(field);
    }
  });
});

describe('GET /api/chats/{chatId}/messages', () => {
  it("pages one chat's messages newest first, both directions", async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const from = '919811810004';
    const ids: string[] = [];
    for (const text of ['m1', 'm2', 'm3']) {
      ids.push(await simInbound({ sessionId: s.sessionId, from, text }));
      await stored(t.id, s.sessionId, must(ids.at(-1), 'ids.at(-1)'));
    }
    ids.push(await send(t.api, t.id, s.sessionId, from, 'm4'));
    await stored(
      t.id,
      s.sessionId,
      await simInbound({ sessionId: s.sessionId, from: '919811810005', text: 'elsewhere' }),
    );

    const page1 = await t.api.get(`/api/chats/%2B${from}/messages?sessionId=${s.sessionId}&limit=3`);
    expect(page1.status, JSON.stringify(page1.body)).toBe(200);
    expect(page1.body.chatId).toBe(from);
    expect(page1.body.messages.map((m: { text: string }) => m.text)).toEqual(['m4', 'm3', 'm2']);
    expect(page1.body.messages[0]).toMatchObject({ id: ids[3], direction: 'outbound', fromMe: true });
    expect(page1.body.next).toBe(ids[1]);
    const page2 = await t.api.get(
      `/api/chats/${from}/messages?sessionId=${s.sessionId}&limit=3&before=${page1.body.next}`,
    );
    expect(page2.body.messages.map((m: { text: string }) => m.text)).toEqual(['m1']);
    expect(page2.body.next).toBeNull();
  });

  it("another tenant's chat or session is a 404; a foreign cursor or bad chat a 400", async () => {
    const [x, y] = await Promise.all([newTenant(), newTenant()]);
    const [sx, sy] = await Promise.all([readySession(x.api), readySession(y.api)]);
    const from = '919811810006';
    const mine = await simInbound({ sessionId: sx.sessionId, from, text: 'private' });
    await stored(x.id, sx.sessionId, mine);
    const viaSession = await y.api.get(`/api/chats/${from}/messages?sessionId=${sx.sessionId}`);
    expect(viaSession.status).toBe(404);
    expect(viaSession.body.error.code).toBe('SESSION_NOT_FOUND');
    const viaOwn = await y.api.get(`/api/chats/${from}/messages?sessionId=${sy.sessionId}`);
    expect(viaOwn.status).toBe(404);
    expect(viaOwn.body.error.message).toMatch(/^chatId: /);
    const cursor = await y.api.get(`/api/chats/${from}/messages?sessionId=${sy.sessionId}&before=${mine}`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.message).toMatch(/^before: /);
    const bad = await x.api.get(`/api/chats/nope/messages?sessionId=${sx.sessionId}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^chatId: /);
  });
});
