import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { idempotencyKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import {
  claimKey,
  completeKey,
  IDEMPOTENCY_TTL_SECONDS,
  releaseKey,
  STALE_CLAIM_MS,
} from '../../functions/api/messages/idempotency-store.ts';

/** The key item's lifecycle, with the clock passed in: claim, answer, replay, expiry, takeover, release. */
describe('idempotency key store', () => {
  const tenant = `tnt_${randomBytes(8).toString('hex')}`;
  const key = () => `k-${randomBytes(6).toString('hex')}`;
  const t0 = Date.now();

  it('one claim wins; the key then answers pending, the first answer, or reused for another body', async () => {
    const k = key();
    const claims = await Promise.all([1, 2, 3, 4].map(() => claimKey(tenant, k, 'body-a', t0)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'pending')).toHaveLength(3);

    await completeKey(tenant, k, 'body-a', { messageId: 'M1' });
    expect(await claimKey(tenant, k, 'body-a', t0 + 1000)).toEqual({
      kind: 'done',
      response: { messageId: 'M1' },
    });
    expect(await claimKey(tenant, k, 'body-b', t0 + 1000)).toEqual({ kind: 'reused' });
    // The item expires with the TTL a day later.
    const item = await dataTable.get<{ expiresAt: number }>(idempotencyKey(tenant, k), true);
    expect(item?.expiresAt).toBe(Math.floor(t0 / 1000) + IDEMPOTENCY_TTL_SECONDS);
  });

  it('after 24 hours the key is free again, even before the TTL has removed the item', async () => {
    const k = key();
    expect(await claimKey(tenant, k, 'body-a', t0)).toEqual({ kind: 'claimed' });
    await completeKey(tenant, k, 'body-a', { messageId: 'M1' });
    const later = t0 + (IDEMPOTENCY_TTL_SECONDS + 1) * 1000;
    expect(await claimKey(tenant, k, 'body-b', later)).toEqual({ kind: 'claimed' });
  });

  it('a claim whose request died is taken over after a minute, not before', async () => {
    const k = key();
    expect(await claimKey(tenant, k, 'body-a', t0)).toEqual({ kind: 'claimed' });
    expect(await claimKey(tenant, k, 'body-a', t0 + STALE_CLAIM_MS - 1)).toEqual({ kind: 'pending' });
    expect(await claimKey(tenant, k, 'body-a', t0 + STALE_CLAIM_MS + 1)).toEqual({ kind: 'claimed' });
  });

  it('a released key can be claimed again at once; another request cannot release it', async () => {
    const k = key();
    expect(await claimKey(tenant, k, 'body-a', Date.now())).toEqual({ kind: 'claimed' });
    await releaseKey(tenant, k, 'body-b');
    expect(await claimKey(tenant, k, 'body-a', Date.now())).toEqual({ kind: 'pending' });
    await releaseKey(tenant, k, 'body-a');
    expect(await claimKey(tenant, k, 'body-b', Date.now())).toEqual({ kind: 'claimed' });
  });

  it('keys are per tenant', async () => {
    const k = key();
    expect(await claimKey(tenant, k, 'body-a', t0)).toEqual({ kind: 'claimed' });
    expect(await claimKey(`${tenant}x`, k, 'body-b', t0)).toEqual({ kind: 'claimed' });
  });
});
