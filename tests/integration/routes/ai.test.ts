import { describe, expect, it } from 'vitest';
import { expectNotFound, twoTenantsAndASession } from '../../support/in-process.ts';

/** /api/v1/ai in-process (functions/api/ai/): usage counters per session. */
describe('ai usage routes', () => {
  it("answers the tenant's usage in its shape and 404 for another tenant's session", async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('ai');
    const all = await a.api.get('/api/v1/ai/usage');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.success).toBe(true);
    expect(all.body.stats).toMatchObject({ totalSessions: 1, totalAiCalls: 0 });
    const one = await a.api.get(`/api/v1/ai/usage/${sessionId}`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.usage).toMatchObject({ aiUsageCount: 0, totalMessages: 0 });
    expectNotFound(await b.api.get(`/api/v1/ai/usage/${sessionId}`));
    expect((await b.api.get('/api/v1/ai/usage')).body.stats.totalSessions).toBe(0);
  });
});
