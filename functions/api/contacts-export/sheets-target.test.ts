import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serviceAccountToken } from './sheets-target.ts';

describe('serviceAccountToken', () => {
  it('answers 503 UPSTREAM_UNAVAILABLE when the token endpoint cannot be reached (was a 500)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = {
      client_email: 'export@example.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    // `.invalid` never resolves (RFC 2606): the request fails before any answer.
    await expect(serviceAccountToken(key, 'https://oauth2.token.invalid/token')).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringMatching(/could not be reached/),
    });
  });
});
