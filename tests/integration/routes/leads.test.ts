import { describe, expect, it } from 'vitest';
import { expectInvalid, expectNotFound, twoTenantsAndASession } from '../../support/in-process.ts';

/** /api/sessions/leads and the contacts export in-process (functions/api/leads/, contacts-export/). */
describe('leads and contacts export routes', () => {
  it('answers no leads for a new session; 404 for another tenant', async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('leads');
    const leads = await a.api.get(`/api/sessions/leads?sessionIds=${sessionId}`);
    expect(leads.status, JSON.stringify(leads.body)).toBe(200);
    expect(leads.body).toMatchObject({
      success: true,
      totalScraped: 0,
      contacts: [],
      targetSessions: [sessionId],
    });
    expectNotFound(await b.api.get(`/api/sessions/leads?sessionIds=${sessionId}`));
    expectNotFound(
      await b.api.post('/api/sessions/contacts/export', { exportType: 'csv', sessionIds: [sessionId] }),
    );
  });

  it('exports CSV inline, keeps export settings per tenant without secrets, names bad fields', async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('export');
    const csv = await a.api.post('/api/sessions/contacts/export', {
      exportType: 'csv',
      sessionIds: [sessionId],
      delivery: 'inline',
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/csv|json/);
    const none = await a.api.get('/api/sessions/contacts/export/settings');
    expect(none.body).toEqual({
      success: true,
      settings: { sqltable: null, onlinesheet: null, updatedAt: null },
    });
    const saved = await a.api.put('/api/sessions/contacts/export/settings', {
      sqltable: { connectionString: 'postgres://u:secret-pw@db.example.com/x', table: 'leads' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain('secret-pw');
    expect((await b.api.get('/api/sessions/contacts/export/settings')).body.settings.sqltable).toBeNull();
    expectInvalid(await a.api.post('/api/sessions/contacts/export', { exportType: 'fax' }), 'exportType');
    expectInvalid(
      await a.api.put('/api/sessions/contacts/export/settings', { sqltable: { table: 'x' } }),
      'sqltable.connectionString',
    );
  });
});
