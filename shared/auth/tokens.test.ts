import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvCache } from '../config/env.ts';
import { must } from '../must.ts';
import { issueToken, verifyToken } from './tokens.ts';

describe('verifyToken', () => {
  beforeAll(() => {
    process.env.JWT_SECRET = 'a-test-secret-of-at-least-32-characters';
    process.env.JWT_TTL_SECONDS = '60';
    resetEnvCache();
  });
  afterEach(() => vi.useRealTimers());

  it('answers a token verified before from memory, but still refuses it once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const { token } = await issueToken({ tenant: 't1', sub: 'k1', scope: 'tenant' });
    expect(await verifyToken(token)).toEqual({ tenant: 't1', sub: 'k1', scope: 'tenant' });
    expect(await verifyToken(token)).toEqual({ tenant: 't1', sub: 'k1', scope: 'tenant' });
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    await expect(verifyToken(token)).rejects.toThrow('token expired');
    await expect(verifyToken(token)).rejects.toThrow('token expired');
  });

  it('does not let a changed copy of a verified token through', async () => {
    const { token } = await issueToken({ tenant: 't1', sub: 'k1', scope: 'tenant' });
    await verifyToken(token);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(must(payload, 'the payload part'), 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, tenant: 't2' })).toString('base64url');
    await expect(verifyToken(`${header}.${forged}.${signature}`)).rejects.toThrow('invalid token');
    await expect(verifyToken(`${token}x`)).rejects.toThrow('invalid token');
  });
});
