import { createHash } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { AI_KEY_STATE_PK, aiKeyStateKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import type { PoolName } from './config.ts';

/** A short fingerprint: the cool-down follows the key, whatever its index after the list is edited. */
export const keyHash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);

interface KeyStateItem {
  pool: PoolName;
  keyIndex: number;
  keyHash: string;
  coolUntil: number;
  reason: string;
}

/** Cool-downs in force, by `pool#keyHash`, with when each ends. */
export type Cooldowns = Map<string, number>;

const id = (pool: PoolName, hash: string) => `${pool}#${hash}`;

/** Every cool-down still running (one Query). A failed read answers none: the chain still works, only less wisely. */
export async function readCooldowns(now = Date.now()): Promise<Cooldowns> {
  const out: Cooldowns = new Map();
  try {
    const items = await dataTable.query<KeyStateItem>({ pk: AI_KEY_STATE_PK });
    for (const it of items) {
      if (it.coolUntil > now) out.set(id(it.pool, it.keyHash), it.coolUntil);
    }
  } catch (err) {
    logger.warn({ err }, 'model chain: key cool-downs unreadable, trying every key');
  }
  return out;
}

export function isCooling(c: Cooldowns, pool: PoolName, key: string, now = Date.now()) {
  return (c.get(id(pool, keyHash(key))) ?? 0) > now;
}

/** Records that a key sits out until `coolUntil`; DynamoDB's TTL removes the item a day later. */
export async function coolDown(
  pool: PoolName,
  keyIndex: number,
  key: string,
  coolUntil: number,
  reason: string,
): Promise<void> {
  await dataTable.put({
    ...aiKeyStateKey(pool, keyHash(key)),
    type: 'ai-key-state',
    pool,
    keyIndex,
    keyHash: keyHash(key),
    coolUntil,
    reason,
    expiresAt: Math.floor(coolUntil / 1000) + 86_400,
  });
}
