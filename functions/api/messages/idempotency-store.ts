import { idempotencyKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/** How long a key holds its first answer. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * A claim still `pending` after this long belongs to a request that died (an API request ends within
 * 30 s): the key may be claimed again rather than stay blocked for a day.
 */
export const STALE_CLAIM_MS = 60_000;

interface KeyItem {
  fingerprint: string;
  state: 'pending' | 'done';
  claimedAtMs: number;
  /** The first answer's JSON, once `done`. */
  response?: string;
  expiresAt: number;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'done'; response: unknown }
  | { kind: 'pending' }
  | { kind: 'reused' };

/**
 * Claims `key` for a request with this fingerprint, in one conditional put: only one of any number
 * of racing requests wins. The others learn what the key holds: the first answer (`done`), a
 * request still running (`pending`), or another body (`reused`).
 *
 * The TTL deletes expired items only eventually, so an item past `expiresAt` counts as absent.
 */
export async function claimKey(
  tenantId: string,
  key: string,
  fingerprint: string,
  nowMs: number,
): Promise<Claim> {
  const k = idempotencyKey(tenantId, key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const item: KeyItem = {
      fingerprint,
      state: 'pending',
      claimedAtMs: nowMs,
      expiresAt: Math.floor(nowMs / 1000) + IDEMPOTENCY_TTL_SECONDS,
    };
    const won = await dataTable.put(
      { ...k, type: 'idempotency-key', ...item },
      {
        condition: {
          expression:
            'attribute_not_exists(pk) OR expiresAt < :nowS OR (#state = :pending AND claimedAtMs < :staleBefore)',
          names: { '#state': 'state' },
          values: {
            ':nowS': Math.floor(nowMs / 1000),
            ':pending': 'pending',
            ':staleBefore': nowMs - STALE_CLAIM_MS,
          },
        },
      },
    );
    if (won) return { kind: 'claimed' };
    const held = await dataTable.get<KeyItem>(k, true);
    // Released (the first request failed) or expired between our put and our read: claim again.
    if (!held || held.expiresAt < Math.floor(nowMs / 1000)) continue;
    if (held.fingerprint !== fingerprint) return { kind: 'reused' };
    if (held.state === 'done') return { kind: 'done', response: JSON.parse(held.response ?? 'null') };
    return { kind: 'pending' };
  }
  return { kind: 'pending' };
}

/** Stores the first answer under the key claimed for it. */
export async function completeKey(
  tenantId: string,
  key: string,
  fingerprint: string,
  response: unknown,
): Promise<void> {
  await dataTable.update(
    idempotencyKey(tenantId, key),
    { state: 'done', response: JSON.stringify(response) },
    { condition: 'fingerprint = :f', values: { ':f': fingerprint } },
  );
}

/**
 * Frees a key whose request failed: nothing was sent, so a retry may send. The item is marked expired
 * (a second ago: the TTL skips items expired years back) rather than deleted, so the write can be
 * conditional on still being this request's claim.
 */
export async function releaseKey(tenantId: string, key: string, fingerprint: string): Promise<void> {
  await dataTable.update(
    idempotencyKey(tenantId, key),
    { expiresAt: Math.floor(Date.now() / 1000) - 1 },
    {
      condition: 'fingerprint = :f AND #state = :pending',
      names: { '#state': 'state' },
      values: { ':f': fingerprint, ':pending': 'pending' },
    },
  );
}
