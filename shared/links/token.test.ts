import { describe, expect, it } from 'vitest';
import { must } from '../must.ts';
import { linkKeyFrom, signLink, verifyLink } from './token.ts';

const key = linkKeyFrom('x'.repeat(48));
const claims = {
  tenant: 'tnt_1',
  key: 'media/tnt_1/a.jpg',
  kind: 'media' as const,
  expiresAt: 2_000,
  epoch: 0,
};

describe('link tokens', () => {
  it('a signed token verifies to its claims until it expires', () => {
    const token = signLink(key, claims);
    expect(verifyLink(key, token, 1_999_999)).toEqual({ ok: true, claims });
    expect(verifyLink(key, token, 2_000_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('a changed payload, signature or key is refused', () => {
    const token = signLink(key, claims);
    const [v, payload, sig] = token.split('.');
    const other = Buffer.from(
      JSON.stringify({ t: 'tnt_2', k: 'media/tnt_2/a.jpg', n: 'media', e: 2_000, v: 0 }),
    ).toString('base64url');
    expect(verifyLink(key, `${v}.${other}.${sig}`, 0)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyLink(key, `${v}.${payload}.${must(sig, 'the signature part').slice(0, -2)}AA`, 0)).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(verifyLink(linkKeyFrom('y'.repeat(48)), token, 0)).toEqual({ ok: false, reason: 'signature' });
  });

  it('what is not a token is malformed', () => {
    for (const t of ['', 'abc', 'v2.a.b', 'v1.a.b.c'])
      expect(verifyLink(key, t, 0)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('the key is bound to links: it is not the secret itself', () => {
    expect(linkKeyFrom('s'.repeat(48)).equals(Buffer.from('s'.repeat(48)))).toBe(false);
  });
});
