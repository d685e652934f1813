import { describe, expect, it } from 'vitest';
import { WhatsAppAPI } from 'whatsapp-api-js';
import { Text } from 'whatsapp-api-js/messages';
import { getMessage } from '#shared/messages/repository';
import { api, baseUrl, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { outboxWith } from '../support/outbox.ts';

/** The real Cloud API client, its Graph requests pointed at this service. */
function cloudClient(token: string) {
  const redirect: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return fetch(`${baseUrl()}/api/messages${url.pathname.replace(/^\/v[\d.]+\//, '/')}`, init);
  };
  return new WhatsAppAPI({ token, v: 'v21.0', secure: false, ponyfill: { fetch: redirect } });
}

interface Activity {
  reads: Array<{ to: string; ids: string[] }>;
  presence: Array<{ to: string; type: string }>;
}
const activity = async (sessionId: string): Promise<Activity> =>
  (await api().get(`/_sim/activity?sessionId=${sessionId}`)).body;

const stored = (tenantId: string, sessionId: string, id: string) =>
  waitFor(() => getMessage(tenantId, sessionId, id), 15_000, `message ${id} stored`);

describe('Cloud API mark as read with a typing indicator', () => {
  it('marks the message read and shows typing in its chat, through whatsapp-api-js', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const from = '919811900001';
    const id = await simInbound({ sessionId: s.sessionId, from, text: 'is my order ready?' });
    await stored(t.id, s.sessionId, id);
    const client = cloudClient(t.token);

    expect(await client.markAsRead(s.mobid, `wamid.${id}`, 'text')).toEqual({ success: true });
    const seen = await waitFor(
      async () => {
        const a = await activity(s.sessionId);
        return a.reads.length > 0 && a.presence.length > 0 ? a : undefined;
      },
      10_000,
      'read and typing at the simulator',
    );
    expect(seen.reads).toEqual([expect.objectContaining({ to: from, ids: [id] })]);
    expect(seen.presence).toEqual([expect.objectContaining({ to: from, type: 'composing' })]);

    // The reply goes out; only a read, without typing, adds no presence.
    await client.sendMessage(s.mobid, from, new Text('Yes, it ships today'));
    await outboxWith(s.sessionId, 1);
    expect(await client.markAsRead(s.mobid, id)).toEqual({ success: true });
    await waitFor(
      async () => ((await activity(s.sessionId)).reads.length === 2 ? true : undefined),
      10_000,
      'read',
    );
    expect((await activity(s.sessionId)).presence).toHaveLength(1);
  });

  it("refuses another tenant's or an unknown message (404) and a missing message_id (400), in the Cloud shape", async () => {
    const [a, b] = await Promise.all([newTenant(), newTenant()]);
    const [sa, sb] = await Promise.all([readySession(a.api), readySession(b.api)]);
    const mine = await simInbound({ sessionId: sa.sessionId, from: '919811900002', text: 'hi' });
    await stored(a.id, sa.sessionId, mine);

    const read = (client: typeof a.api, mobid: string, body: Record<string, unknown>) =>
      client.post(`/api/messages/${mobid}/messages`, {
        messaging_product: 'whatsapp',
        status: 'read',
        ...body,
      });
    for (const r of [
      await read(b.api, sb.mobid, { message_id: `wamid.${mine}`, typing_indicator: { type: 'text' } }),
      await read(a.api, sa.mobid, { message_id: 'wamid.3EB0000000000000DEAD' }),
    ]) {
      expect(r.status, JSON.stringify(r.body)).toBe(404);
      expect(r.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
    }
    const missing = await read(a.api, sa.mobid, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.error_data.details).toMatch(/^message_id:/);
    const badTyping = await read(a.api, sa.mobid, { message_id: mine, typing_indicator: { type: 'audio' } });
    expect(badTyping.status).toBe(400);
    expect(badTyping.body.error.error_data.details).toMatch(/^typing_indicator\.type:/);

    expect(await activity(sb.sessionId)).toMatchObject({ reads: [], presence: [] });
    expect(await activity(sa.sessionId)).toMatchObject({ reads: [], presence: [] });
  });
});
