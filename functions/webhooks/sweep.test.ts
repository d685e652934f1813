import { describe, expect, it } from 'vitest';
import { STALE_CLAIM_MS } from '#shared/webhooks/job';
import { nextJobOf } from './sweep.ts';

const base = {
  tenantId: 't1',
  id: 'dlv_1',
  sessionId: 's1',
  round: 2,
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the attempt a sweep queues for an open delivery', () => {
  it.each([
    ['pending: its first attempt, due at once', { status: 'pending', attempts: 0 }, 1, 0],
    [
      'retrying: the next attempt, due at nextAttemptAt',
      { status: 'retrying', attempts: 3, nextAttemptAt: '2026-01-01T00:01:00.000Z' },
      4,
      Date.parse('2026-01-01T00:01:00.000Z'),
    ],
    ['retrying without a time: due at once', { status: 'retrying', attempts: 1, nextAttemptAt: null }, 2, 0],
    [
      'sending: the claimed attempt again, once the claim is stale',
      { status: 'sending', attempts: 5, claimedAt: 1_000 },
      5,
      1_000 + STALE_CLAIM_MS,
    ],
  ] as const)('%s', (_, fields, attempt, dueAt) => {
    const planned = nextJobOf({ ...base, ...fields });
    expect(planned).toEqual({
      job: { tenantId: 't1', deliveryId: 'dlv_1', round: 2, sessionId: 's1', attempt },
      dueAt,
    });
  });
});
