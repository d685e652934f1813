import { describe, expect, it } from 'vitest';
import { caller, expectInvalid, tenant } from '../../support/in-process.ts';

/** /api/v1/tts in-process (shared/speech/routes.ts): validation and auth (synthesis is e2e-tested). */
describe('tts route', () => {
  it('names a bad field and refuses a caller without a token', async () => {
    const t = await tenant('tts');
    expectInvalid(await t.api.post('/api/v1/tts', {}), 'text');
    expectInvalid(await t.api.post('/api/v1/tts', { text: '' }), 'text');
    expectInvalid(await t.api.post('/api/v1/tts', { text: 'x'.repeat(100_000) }), 'text');
    expect((await caller().post('/api/v1/tts', { text: 'hello' })).status).toBe(401);
  });
});
