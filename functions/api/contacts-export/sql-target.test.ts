import { describe, expect, it } from 'vitest';
import { pgConfig } from './sql-target.ts';

describe('pgConfig: the database host goes through the private-address guard', () => {
  it('refuses loopback, private, metadata and names resolving to them unless allowed', async () => {
    for (const url of [
      'postgres://u:p@127.0.0.1:5432/db',
      'postgres://u:p@10.1.2.3/db',
      'postgres://u:p@169.254.169.254/db',
      'postgres://u:p@[::1]:5432/db',
      'postgres://u:p@localhost/db',
    ])
      await expect(pgConfig(url, false), url).rejects.toMatchObject({ code: expect.any(String) });
  });

  it('dials the checked address with the URL’s credentials, database and TLS mode', async () => {
    const c = await pgConfig('postgres://bob:p%40ss@127.0.0.1:6543/crm?sslmode=require', true);
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 6543,
      user: 'bob',
      password: 'p@ss',
      database: 'crm',
    });
    expect(c.ssl).toMatchObject({ rejectUnauthorized: false });
    const public8 = await pgConfig('postgres://a:b@8.8.8.8/db', false);
    expect(public8).toMatchObject({ host: '8.8.8.8', port: 5432, ssl: false });
  });
});
