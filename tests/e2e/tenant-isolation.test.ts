import { describe, expect, it } from 'vitest';
import { newTenant, readySession } from '../support/client.ts';

/** Tenant B, authenticated, pointing at tenant A's resources by their real identifiers. */
describe('tenant isolation across resource types', () => {
  it('keeps sessions, sends, templates, usage, webhook configuration and history apart', async () => {
    const a = await newTenant('a');
    const b = await newTenant('b');
    const s = await readySession(a.api);
    expect((await a.api.post('/api/templates', { name: 'welcome', body: 'Hi {{1}}' })).status).toBe(201);
    expect(
      (
        await a.api.post('/api/webhook/config', {
          webhookUrl: 'https://hooks.example.com/a',
          approvedDomains: '*',
          secretToken: 's3cret',
          enabled: true,
        })
      ).status,
    ).toBe(200);
    const sent = await a.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: '919844400001',
      text: 'for a only',
    });
    expect(sent.status).toBe(202);

    // Sending through A's session by any of its identifiers.
    for (const id of [s.sessionId, s.mobid, s.mobile_number]) {
      const r = await b.api.post('/api/messages/send', { sessionId: id, to: '919844400002', text: 'hijack' });
      expect(r.status, id).toBe(404);
      expect(
        (
          await b.api.post(`/api/messages/${id}/messages`, {
            messaging_product: 'whatsapp',
            to: '919844400002',
            type: 'text',
            text: { body: 'x' },
          })
        ).status,
      ).toBe(404);
    }
    // A's template does not exist for B, for listing or sending.
    expect((await b.api.get('/api/templates')).body.templates).toEqual([]);
    expect((await b.api.delete('/api/templates/welcome')).status).toBe(404);
    // Usage of A's session.
    expect((await b.api.get(`/api/sessions/usage/${s.mobid}`)).status).toBe(404);
    expect((await b.api.get('/api/sessions/usage')).body.totalSessions).toBe(0);
    // B's webhook configuration is its own (empty), never A's URL or secret.
    const cfg = await b.api.get('/api/webhook/config');
    expect(JSON.stringify(cfg.body)).not.toContain('hooks.example.com');
    expect(JSON.stringify(cfg.body)).not.toContain('s3cret');
    // History filtered by A's session or number shows nothing to B.
    const view = await b.api.get(`/view/messages/v1?sessionId=${s.sessionId}`);
    expect(view.body.count ?? 0).toBe(0);
    const formatted = await b.api.get(`/api/v1/formatted?mobid=${s.mobid}`);
    expect(formatted.status).toBe(404);
    // And A still sees its own.
    expect((await a.api.get(`/view/messages/v1?sessionId=${s.sessionId}`)).body.count).toBe(1);
  });
});
