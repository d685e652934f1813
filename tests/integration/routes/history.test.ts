import { describe, expect, it } from 'vitest';
import {
  caller,
  expectInvalid,
  expectNotFound,
  tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/** History and live feeds in-process (functions/api/history/): /api/v1/formatted, /view, the portal. */
describe('history routes', () => {
  it("answers a session's formatted history (none), names bad queries, 404 for another tenant", async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('history');
    const formatted = await a.api.get(`/api/v1/formatted?mobid=${sessionId}`);
    expect(formatted.status, JSON.stringify(formatted.body)).toBe(200);
    expect(formatted.body).toMatchObject({ success: true, total: 0, messages: [] });
    expectInvalid(await a.api.get('/api/v1/formatted'), 'mobid');
    expectInvalid(await a.api.get(`/api/v1/formatted?mobid=${sessionId}&limit=-3`), 'limit');
    expectNotFound(await b.api.get(`/api/v1/formatted?mobid=${sessionId}`));
    const view = await a.api.get(`/view/messages/v1?sessionId=${sessionId}`);
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body).toMatchObject({ success: true, count: 0, messages: [] });
    expectNotFound(await b.api.get(`/view/messages/v1?sessionId=${sessionId}`));
    // The view also takes the API key in the query, and as the Bearer credential (one "token or API
    // key" check for the view, the streams and speech; shared/auth/host-auth.ts).
    expect((await caller().get(`/view/messages/v1?key=${a.apiKey}`)).status).toBe(200);
    expect((await caller(a.apiKey).get(`/view/messages/v1?sessionId=${sessionId}`)).status).toBe(200);
    expect((await caller('wsm_not_a_key').get('/view/messages/v1')).status).toBe(401);
    expect((await caller().get('/view/messages/v1')).status).toBe(401);
  });

  it('answers the public portal feed by portal id only', async () => {
    const t = await tenant('history-portal');
    const live = await caller().get(`/api/public/portal/${t.portalId}/live-messages`);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body).toMatchObject({ success: true, portal_id: t.portalId, count: 0, messages: [] });
    expectNotFound(await caller().get(`/api/public/portal/prt_${'0'.repeat(32)}/live-messages`));
    expectInvalid(await caller().get('/api/public/portal/p_nobody/live-messages'), 'portal_id');
  });
});
