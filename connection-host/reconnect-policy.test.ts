import { describe, expect, it } from 'vitest';
import { afterLinkEnd, type EndCounts, MAX_REPLACED } from './reconnect-policy.ts';

const fresh = (): EndCounts => ({ refusals: 0, replaced: 0 });

describe('afterLinkEnd', () => {
  it.each([
    ['logged_out', 'LOGGED_OUT'],
    ['fatal', 'FAILED'],
  ] as const)('ends the session at once on %s', (kind, status) => {
    expect(afterLinkEnd({ kind, reason: 'r' }, fresh(), 0, 3)).toEqual({ kind: 'end', status, reason: 'r' });
  });

  it('retries transient ends forever', () => {
    const counts = fresh();
    for (let i = 0; i < 100; i++)
      expect(afterLinkEnd({ kind: 'transient', reason: 'r' }, counts, 0, 3)).toEqual({
        kind: 'retry',
        reason: 'r',
      });
  });

  it('fails a bad session after maxFailures refused logins in a row', () => {
    const counts = fresh();
    expect(afterLinkEnd({ kind: 'refused', reason: 'r' }, counts, 0, 2).kind).toBe('retry');
    expect(afterLinkEnd({ kind: 'refused', reason: 'r' }, counts, 0, 2)).toMatchObject({
      kind: 'end',
      status: 'FAILED',
    });
  });

  it('stops fighting another client after MAX_REPLACED 440s in a row; a calm link starts the count again', () => {
    const counts = fresh();
    for (let i = 1; i < MAX_REPLACED; i++)
      expect(afterLinkEnd({ kind: 'replaced', reason: 'r' }, counts, 1000, 3).kind).toBe('retry');
    // A link that lasted five minutes: the count starts again.
    expect(afterLinkEnd({ kind: 'replaced', reason: 'r' }, counts, 5 * 60_000, 3).kind).toBe('retry');
    for (let i = 1; i < MAX_REPLACED - 1; i++) afterLinkEnd({ kind: 'replaced', reason: 'r' }, counts, 0, 3);
    expect(afterLinkEnd({ kind: 'replaced', reason: 'r' }, counts, 0, 3)).toMatchObject({
      kind: 'end',
      status: 'DISCONNECTED',
    });
  });
});
