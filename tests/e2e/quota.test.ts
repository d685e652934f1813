import { describe, expect, it } from 'vitest';
import { newTenant, readySession } from '../support/client.ts';

const secondsToMonthEnd = () => {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
};

describe('message quota', () => {
  it('accepts exactly `limit` of 50 concurrent sends; the rest are 429 with Retry-After', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const set = await t.api.post(`/api/sessions/usage/${s.mobid}`, { limit: 10 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ identifier: s.mobid, limit: 10, usage: 0, remaining: 10 });

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.api.post('/api/messages/send', {
          sessionId: s.sessionId,
          to: '919800000001',
          message: `burst ${i}`,
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.body.error.code).toBe('QUOTA_EXCEEDED');
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(Math.abs(retryAfter - secondsToMonthEnd())).toBeLessThan(60);
    }
    expect(new Set(accepted.map((r) => r.body.messageId)).size).toBe(10);

    const usage = await t.api.get(`/api/sessions/usage/${s.sessionId}`);
    expect(usage.body).toMatchObject({ usage: 10, limit: 10, remaining: 0 });

    // Only accepted messages were stored.
    const history = await t.api.get(`/view/messages/v1?sessionId=${s.sessionId}&type=outbound&limit=100`);
    expect(history.body.count).toBe(10);

    // Raising the limit lets sending resume at once.
    await t.api.post(`/api/sessions/usage/${s.mobid}`, { limit: 11 });
    const again = await t.api.post('/api/messages/send', {
      sessionId: s.mobid,
      to: '919800000001',
      message: 'one more',
    });
    expect(again.status).toBe(202);
    const limit0 = await t.api.post(`/api/sessions/usage/${s.mobid}`, { limit: 0 });
    expect(limit0.body).toMatchObject({ usage: 11, limit: 0, remaining: 0 });
    expect(
      (await t.api.post('/api/messages/send', { sessionId: s.mobid, to: '919800000001', message: 'no' }))
        .status,
    ).toBe(429);
  });

  it('reports usage per sender (by mobid, number or session id) and for all sessions', async () => {
    const t = await newTenant();
    const a = await readySession(t.api, 'front desk');
    const b = await readySession(t.api, 'billing');
    for (let i = 0; i < 3; i++) {
      const r = await t.api.post('/api/messages/send', {
        sessionId: a.mobid,
        to: '919800000002',
        message: `m${i}`,
      });
      expect(r.status).toBe(202);
    }

    for (const identifier of [a.mobid, a.mobile_number, a.sessionId, `+${a.mobile_number}`]) {
      const r = await t.api.get(`/api/sessions/usage/${encodeURIComponent(identifier)}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        success: true,
        identifier,
        sessionId: a.sessionId,
        mobid: a.mobid,
        mobile_number: a.mobile_number,
        session_name: 'front desk',
        usage: 3,
        limit: 1000,
        remaining: 997,
        status: 'READY',
        dbStatus: 'active',
        period: expect.stringMatching(/^\d{4}-\d{2}$/),
        resetsAt: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00.000Z$/),
      });
    }

    const all = await t.api.get('/api/sessions/usage');
    expect(all.status).toBe(200);
    expect(all.body.success).toBe(true);
    expect(all.body.totalSessions).toBe(2);
    const byId = Object.fromEntries(all.body.sessions.map((x: { sessionId: string }) => [x.sessionId, x]));
    expect(byId[a.sessionId]).toMatchObject({ usage: 3, remaining: 997, session_name: 'front desk' });
    expect(byId[b.sessionId]).toMatchObject({ usage: 0, remaining: 1000, session_name: 'billing' });
    expect(byId[a.sessionId].identifier).toBeUndefined();

    expect((await t.api.get('/api/sessions/usage/000000000000000')).status).toBe(404);
    const bad = await t.api.post(`/api/sessions/usage/${a.mobid}`, { limit: -5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^limit:/);

    // Another tenant sees none of it.
    const other = await newTenant();
    expect((await other.api.get(`/api/sessions/usage/${a.mobid}`)).status).toBe(404);
    expect((await other.api.get('/api/sessions/usage')).body.totalSessions).toBe(0);
  });
});
