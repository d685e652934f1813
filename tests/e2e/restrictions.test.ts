import { describe, expect, it } from 'vitest';
import { names } from '#shared/aws/names';
import { sendJson } from '#shared/queue/send';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { openStream } from '../support/sse-client.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * A restriction the host reports (here put on the events queue as the host would, after Baileys saw
 * a time-lock push) becomes session state: session info, a `session.status` webhook and the same
 * event on the tenant stream show it,
 * and sends to chats the session has no history with are refused (429 NEW_CHATS_RESTRICTED) while
 * existing chats keep working. Its lifting is reported and sends to new chats are accepted again.
 */

/** Puts a READY `session.status` carrying `restriction` on the events queue, as the host reports one. */
const reportRestriction = (tenantId: string, sessionId: string, restriction: unknown) =>
  sendJson(names.eventsQueue(), {
    kind: 'session.status',
    tenantId,
    sessionId,
    at: Date.now(),
    status: 'READY',
    restriction,
    fence: 1_000_000,
  });

describe('network restrictions on new chats', () => {
  it('shows the time-lock, refuses new chats while it holds, and lets go when it is lifted', async () => {
    const t = await newTenant();
    const hook = await startReceiver();
    const stream = await openStream(t.portalId);
    const streamed = () => stream.events.filter((e) => e.json?.event === 'session.status');
    try {
      await stream.connected;
      await webhookTo(t.api, hook);
      const s = await readySession(t.api);
      // An existing chat: a message arrived from it.
      expect(
        (await api().post('/_sim/inbound', { sessionId: s.sessionId, from: '919800000077', text: 'hi' }))
          .status,
      ).toBe(200);
      await waitFor(async () => {
        const r = await t.api.get(`/api/v1/formatted?mobid=${s.mobid}&chatId=919800000077`);
        return r.body.messages?.length ? true : undefined;
      });

      const until = Date.now() + 3_600_000;
      await reportRestriction(t.id, s.sessionId, {
        reason: 'reachout_timelock',
        until,
        detail: 'BIZ_QUALITY',
      });
      const info = await waitFor(async () => {
        const r = await t.api.get(`/api/sessions/${s.sessionId}`);
        return r.body.session.restriction ? r.body.session : undefined;
      });
      expect(info).toMatchObject({
        status: 'READY',
        restriction: {
          reason: 'reachout_timelock',
          until: new Date(until).toISOString(),
          detail: 'BIZ_QUALITY',
        },
      });
      const webhook = await waitFor(async () =>
        hook.of('session.status').find((r) => r.json.restriction?.reason === 'reachout_timelock'),
      );
      expect(webhook.json).toMatchObject({
        status: 'READY',
        restriction: { until: new Date(until).toISOString() },
      });
      const live = await waitFor(async () =>
        streamed().find((e) => e.json.restriction?.reason === 'reachout_timelock'),
      );
      expect(live.json).toEqual(webhook.json);
      expect(live.id).toMatch(/^\d{13}#rst_[0-9a-f]{24}$/);

      const refused = await t.api.post('/api/messages/send', {
        sessionId: s.sessionId,
        to: '919800000078',
        text: 'first contact',
      });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('NEW_CHATS_RESTRICTED');
      expect(refused.body.error.message).toContain('reach-out time-lock');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);

      const existing = await t.api.post('/api/messages/send', {
        sessionId: s.sessionId,
        to: '919800000077',
        text: 'a reply in an existing chat',
      });
      expect(existing.status).toBe(202);

      await reportRestriction(t.id, s.sessionId, null);
      await waitFor(async () => {
        const r = await t.api.get(`/api/sessions/${s.sessionId}`);
        return r.body.session.restriction === null ? true : undefined;
      });
      // The lifting is news too: a session.status after the time-lock's, without a restriction.
      await waitFor(async () => {
        const all = hook.of('session.status');
        const lock = all.findIndex((r) => r.json.restriction?.reason === 'reachout_timelock');
        return all.slice(lock + 1).some((r) => r.json.restriction === null) ? true : undefined;
      });
      // And on the stream, once each.
      await waitFor(async () => (streamed().at(-1)?.json.restriction === null ? true : undefined));
      expect(streamed().map((e) => e.json.restriction?.reason ?? null)).toEqual(['reachout_timelock', null]);
      const again = await t.api.post('/api/messages/send', {
        sessionId: s.sessionId,
        to: '919800000078',
        text: 'first contact',
      });
      expect(again.status).toBe(202);
    } finally {
      await stream.close();
      await hook.close();
    }
  });
});
