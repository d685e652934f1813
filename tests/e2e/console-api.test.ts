import { afterAll, describe, expect, it } from 'vitest';
import { messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/** API additions the console draws on (docs/console.md): usage per day and the delivery log's event filter. */
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers) await c();
});

describe('usage over time and the delivery log filters', () => {
  it("counts each session's sends and receipts per UTC day, oldest day first; refuses a bad period", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const s = await readySession(t.api, 'desk');
    for (const text of ['one', 'two'])
      expect(
        (await t.api.post('/api/messages/send', { sessionId: s.sessionId, to: '919800000001', text })).status,
      ).toBe(202);
    await messageStored(
      t.api,
      await simInbound({ sessionId: s.sessionId, from: '919800000001', text: 'hi' }),
    );

    const daily = await waitFor(async () => {
      const r = await t.api.get('/api/sessions/usage/daily?days=7');
      const today = r.body.sessions?.[0]?.days.at(-1);
      return today?.received === 1 && today.sent === 2 ? r.body : undefined;
    });
    expect(daily.days).toHaveLength(7);
    expect(daily.days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(daily.days).toEqual([...daily.days].sort());
    expect(daily.sessions).toHaveLength(1);
    expect(daily.sessions[0]).toMatchObject({ sessionId: s.sessionId, session_name: 'desk' });
    expect(daily.sessions[0].days[0]).toMatchObject({ sent: 0, received: 0, aiCalls: 0 });
    expect((await t.api.get('/api/sessions/usage/daily')).body.days).toHaveLength(30);
    for (const days of ['0', '91', 'x'])
      expect((await t.api.get(`/api/sessions/usage/daily?days=${days}`)).status).toBe(400);
    // Another tenant's usage shows none of these sessions.
    expect((await other.api.get('/api/sessions/usage/daily')).body.sessions).toEqual([]);
  });

  it('filters deliveries by event; a malformed event name is a 400', async () => {
    const t = await newTenant();
    const receiver = await startReceiver(() => 200);
    closers.push(receiver.close);
    const host = new URL(receiver.url).hostname;
    await t.api.post('/api/webhook/config', { webhookUrl: receiver.url, approvedDomains: host });
    const s = await readySession(t.api);
    await messageStored(
      t.api,
      await simInbound({ sessionId: s.sessionId, from: '919800000002', text: 'hello' }),
    );
    const inbound = await waitFor(async () => {
      const r = await t.api.get('/api/webhook/deliveries?event=message.inbound');
      return r.body.count > 0 ? r.body.deliveries : undefined;
    });
    expect(inbound.every((d: { event: string }) => d.event === 'message.inbound')).toBe(true);
    const all = (await t.api.get('/api/webhook/deliveries')).body.deliveries as Array<{ event: string }>;
    expect(all.some((d) => d.event !== 'message.inbound')).toBe(true);
    expect((await t.api.get('/api/webhook/deliveries?event=Not%20An%20Event')).status).toBe(400);
  });
});
