import { describe, expect, it } from 'vitest';
import {
  allowed,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  DeliveryStepError,
  NONE,
  newDelivery,
  next,
  type Outcome,
  STEPS,
  type Step,
  storedFrom,
} from './lifecycle.ts';

/** Every step from every state to every status: the allowed ones, written out; all others refused. */
const ALLOWED: Array<[Step, string, DeliveryStatus]> = [
  ['create', NONE, 'pending'],
  ['claimNew', NONE, 'sending'],
  ['firstOutcome', NONE, 'delivered'],
  ['firstOutcome', NONE, 'retrying'],
  ['firstOutcome', NONE, 'failed'],
  ['claim', 'pending', 'sending'],
  ['claim', 'retrying', 'sending'],
  ['takeOver', 'sending', 'sending'],
  ['outcome', 'sending', 'delivered'],
  ['outcome', 'sending', 'retrying'],
  ['outcome', 'sending', 'failed'],
  ['reopen', 'failed', 'pending'],
  ['reopen', 'pending', 'pending'],
  ['reopen', 'retrying', 'pending'],
  ['reopen', 'sending', 'pending'],
];

const key = (step: string, from: string, to: string) => `${step}: ${from} → ${to}`;
const allowedKeys = new Set(ALLOWED.map(([s, f, t]) => key(s, f, t)));
const every = (Object.keys(STEPS) as Step[]).flatMap((step) =>
  [NONE, ...DELIVERY_STATUSES].flatMap((from) =>
    DELIVERY_STATUSES.map((to) => [step, from, to] as [Step, typeof NONE | DeliveryStatus, DeliveryStatus]),
  ),
);

describe('webhook delivery lifecycle', () => {
  it.each(ALLOWED)('allows %s from %s to %s', (step, from, to) => {
    expect(allowed(step, from as DeliveryStatus, to)).toBe(true);
    expect(next(step, from as DeliveryStatus, to)).toBe(to);
  });

  it('refuses every other step, naming it', () => {
    const refused = every.filter(([s, f, t]) => !allowedKeys.has(key(s, f, t)));
    // 7 steps × 6 states × 5 statuses, less the allowed ones.
    expect(refused).toHaveLength(7 * 6 * 5 - ALLOWED.length);
    for (const [step, from, to] of refused) {
      expect(allowed(step, from, to), key(step, from, to)).toBe(false);
      expect(() => next(step, from, to)).toThrow(DeliveryStepError);
    }
  });

  it('never leaves delivered: nothing starts from it', () => {
    for (const step of Object.keys(STEPS) as Step[]) expect(storedFrom(step)).not.toContain('delivered');
  });

  it('only the steps from nothing make a record; the store conditions use the stored statuses', () => {
    expect(
      (Object.keys(STEPS) as Step[]).filter((s) => (STEPS[s].from as readonly string[]).includes(NONE)),
    ).toEqual(['create', 'claimNew', 'firstOutcome']);
    expect(storedFrom('claim')).toEqual(['pending', 'retrying']);
    expect(storedFrom('create')).toEqual([]);
  });
});

describe('newDelivery', () => {
  const draft = {
    id: 'dlv_1',
    tenantId: 't1',
    sessionId: 's1',
    event: 'message.inbound',
    body: '{"a":1}',
    url: 'https://hooks.example.com/x',
  };
  const created = Date.UTC(2026, 0, 2, 3, 4, 5);

  it('create: pending, round 0, no attempt, the URL it was queued for', () => {
    expect(newDelivery(draft, created, { step: 'create' })).toEqual({
      ...draft,
      status: 'pending',
      round: 0,
      attempts: 0,
      attemptLog: [],
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
  });

  it('claimNew: sending, attempt 1, claimed with the token', () => {
    const d = newDelivery(draft, created, { step: 'claimNew', token: 'tok', nowMs: created + 5 });
    expect(d).toMatchObject({ status: 'sending', attempts: 1, claimToken: 'tok', claimedAt: created + 5 });
  });

  it('firstOutcome: the first attempt in the log, its outcome as the status', () => {
    const outcome: Outcome = {
      status: 'delivered',
      record: {
        round: 0,
        attempt: 1,
        at: '2026-01-02T03:04:06.000Z',
        url: draft.url,
        statusCode: 200,
        error: null,
        durationMs: 12,
        outcome: 'delivered',
      },
    };
    const d = newDelivery(draft, created, { step: 'firstOutcome', outcome });
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 1,
      attemptLog: [outcome.record],
      lastStatusCode: 200,
      deliveredAt: outcome.record.at,
      updatedAt: outcome.record.at,
      createdAt: '2026-01-02T03:04:05.000Z',
    });
    expect(d.claimToken).toBeUndefined();
  });
});
