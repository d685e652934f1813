import { afterEach, describe, expect, it } from 'vitest';
import { getMessage } from '#shared/messages/repository';
import { api, newTenant, readySession, sessionReady, simInbound, waitFor } from '../support/client.ts';
import { listenTo } from '../support/listeners.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const DAY = 86_400_000;

async function setup() {
  const t = await newTenant('history');
  const { recv, stream: live } = await listenTo(t, closers);
  return { t, recv, live };
}

const history = (sessionId: string, from: string) =>
  api().post('/_sim/history', {
    sessionId,
    messages: [
      { from, name: 'Asha', text: 'last month', timestampMs: Date.now() - 30 * DAY },
      { from, name: 'Asha', text: 'two days ago', timestampMs: Date.now() - 2 * DAY },
      { from, name: 'Asha', text: 'yesterday', timestampMs: Date.now() - DAY },
    ],
  });

describe('history sync on request', () => {
  it('stores the days asked for, marked history, with no message.inbound; history.synced tells the count', async () => {
    const { t, recv, live } = await setup();
    const created = await t.api.post('/api/sessions', { syncHistory: { days: 7 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const s = await sessionReady(t.api, created.body.session.sessionId);
    expect(s.syncHistory).toEqual({ days: 7 });
    const from = '919811850001';
    const pushed = await history(s.sessionId, from);
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const [old, twoDays, yesterday] = pushed.body.messageIds as string[];

    const synced = await waitFor(
      async () => recv.requests.find((r) => r.json?.event === 'history.synced')?.json,
      10_000,
      'history.synced webhook',
    );
    expect(synced).toMatchObject({ session_id: s.sessionId, mobid: s.mobid, count: 2, received: 2 });
    expect(await getMessage(t.id, s.sessionId, old as string)).toBeUndefined(); // older than 7 days
    for (const id of [twoDays, yesterday]) {
      expect(await getMessage(t.id, s.sessionId, id as string)).toMatchObject({
        direction: 'inbound',
        chatId: from,
        history: true,
      });
    }
    const page = await t.api.get(`/api/chats/${from}/messages?sessionId=${s.sessionId}`);
    expect(page.body.messages.map((m: { text: string }) => m.text)).toEqual(['yesterday', 'two days ago']);
    await waitFor(
      async () => live.events.some((e) => e.json.event === 'history.synced'),
      10_000,
      'history.synced on the stream',
    );

    // A live message afterwards is news as usual; the history never was.
    const liveId = await simInbound({ sessionId: s.sessionId, from, text: 'hello now' });
    await waitFor(
      async () =>
        recv.requests.some((r) => r.json?.event === 'message.inbound' && r.json.message_id === liveId),
      10_000,
      'live message.inbound',
    );
    const inboundIds = recv.requests
      .filter((r) => r.json?.event === 'message.inbound')
      .map((r) => r.json.message_id);
    expect(inboundIds).toEqual([liveId]);
    const streamed = live.events.map((e) => e.json.message).filter(Boolean);
    expect(streamed).not.toContain('yesterday');
    expect(streamed).not.toContain('two days ago');
  });

  it('is off unless asked: the phone history is not stored', async () => {
    const { t, recv } = await setup();
    const s = await readySession(t.api);
    expect(s.syncHistory).toBeNull();
    const pushed = await history(s.sessionId, '919811850002');
    await simInbound({ sessionId: s.sessionId, from: '919811850002', text: 'marker' });
    await waitFor(
      async () => recv.requests.some((r) => r.json?.event === 'message.inbound'),
      10_000,
      'marker message',
    );
    for (const id of pushed.body.messageIds as string[])
      expect(await getMessage(t.id, s.sessionId, id)).toBeUndefined();
    expect(recv.requests.some((r) => r.json?.event === 'history.synced')).toBe(false);
  });

  it('syncHistory is validated', async () => {
    const t = await newTenant('history-bad');
    for (const syncHistory of [{ days: 0 }, { days: 400 }, { days: 1.5 }, { weeks: 1 }, true]) {
      const r = await t.api.post('/api/sessions', { syncHistory });
      expect(r.status, JSON.stringify(syncHistory)).toBe(400);
      expect(r.body.error.message).toMatch(/syncHistory/);
    }
  });
});
