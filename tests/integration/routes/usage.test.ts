import { describe, expect, it } from 'vitest';
import { expectInvalid, expectNotFound, twoTenantsAndASession } from '../../support/in-process.ts';

/** /api/sessions/usage in-process (functions/api/usage/): monthly message quotas. */
describe('usage routes', () => {
  it('answers and sets a session limit; names a bad one; 404 for another tenant', async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('usage');
    const all = await a.api.get('/api/sessions/usage');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body).toMatchObject({ success: true, totalSessions: 1 });
    expect(all.body.sessions[0]).toMatchObject({ sessionId, usage: 0 });
    const set = await a.api.post(`/api/sessions/usage/${sessionId}`, { limit: 500 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ sessionId, limit: 500, remaining: 500 });
    expect((await a.api.get(`/api/sessions/usage/${sessionId}`)).body.limit).toBe(500);
    expectInvalid(await a.api.post(`/api/sessions/usage/${sessionId}`, { limit: -1 }), 'limit');
    expectInvalid(await a.api.post(`/api/sessions/usage/${sessionId}`, {}), 'limit');
    expectNotFound(await b.api.get(`/api/sessions/usage/${sessionId}`));
    expectNotFound(await b.api.post(`/api/sessions/usage/${sessionId}`, { limit: 1 }));
    expect((await b.api.get('/api/sessions/usage')).body.totalSessions).toBe(0);
  });
});
