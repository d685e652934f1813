import { describe, expect, it } from 'vitest';
import { caller, tenant } from '../../support/in-process.ts';

/** /api/links and /links in-process (functions/api/links/). */
describe('links routes', () => {
  it('revokes the tenant links (the epoch rises) and refuses an altered link', async () => {
    const t = await tenant('links');
    const first = await t.api.post('/api/links/revoke');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, linkEpoch: expect.any(Number) });
    const second = await t.api.post('/api/links/revoke');
    expect(second.body.linkEpoch).toBeGreaterThan(first.body.linkEpoch);
    expect((await caller().post('/api/links/revoke')).status).toBe(401);
    const forged = await caller().get('/links/not-a-real-link-token');
    expect(forged.status).toBe(403);
    expect(forged.body.success).toBe(false);
  });
});
