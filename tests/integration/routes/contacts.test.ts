import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectInvalid,
  expectNotFound,
  type Tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/** /api/contacts in-process (functions/api/contacts/): the check needs a READY session. */
describe('contacts routes', () => {
  let a: Tenant;
  let b: Tenant;
  let sessionId: string;
  beforeAll(async () => {
    ({ a, b, sessionId } = await twoTenantsAndASession('contacts'));
  });

  it('names the bad field', async () => {
    expectInvalid(await a.api.post('/api/contacts/check', { sessionId }), 'numbers');
    expectInvalid(await a.api.post('/api/contacts/check', { numbers: ['15550001111'] }), 'sessionId');
    expectInvalid(await a.api.post('/api/contacts/check', { sessionId, numbers: 'x' }), 'numbers');
  });

  it('refuses a session that is not READY (422) and another tenant’s session (404)', async () => {
    const r = await a.api.post('/api/contacts/check', { sessionId, numbers: ['15550001111'] });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.error.code).toBe('SESSION_NOT_READY');
    expectNotFound(await b.api.post('/api/contacts/check', { sessionId, numbers: ['15550001111'] }));
  });
});
