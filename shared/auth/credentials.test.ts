import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env.ts';
import { must } from '../must.ts';
import { adminSubject, assertActive } from './credentials.ts';

describe('admin tokens name their admin key', () => {
  const withAdminKey = (key: string | undefined) => {
    if (key === undefined) delete process.env.ADMIN_API_KEY;
    else process.env.ADMIN_API_KEY = key;
    resetEnvCache();
  };
  afterEach(() => withAdminKey(undefined));

  it('gives one key one subject, another key another, and shows nothing of the key', () => {
    const a = adminSubject('adm_first-admin-key-0123456789');
    expect(a).toMatch(/^admin:[0-9a-f]{16}$/);
    expect(adminSubject('adm_first-admin-key-0123456789')).toBe(a);
    expect(adminSubject('adm_second-admin-key-012345678')).not.toBe(a);
    expect(a).not.toContain('first');
  });

  it('accepts an admin token of the current key only, and none where no admin key is set', async () => {
    withAdminKey('adm_first-admin-key-0123456789');
    const claims = (sub: string) => ({ tenant: 'admin', sub, scope: 'admin' as const });
    await expect(assertActive(claims(must(adminSubject(), 'the admin subject')))).resolves.toBeUndefined();
    await expect(assertActive(claims('admin'))).rejects.toThrow('no longer current');
    const old = must(adminSubject(), 'the admin subject');
    withAdminKey('adm_second-admin-key-012345678');
    await expect(assertActive(claims(old))).rejects.toThrow('no longer current');
    withAdminKey(undefined);
    await expect(assertActive(claims(old))).rejects.toThrow('no longer current');
  });
});
