import { createHash } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { AI_KEY_STATE_PK, aiKeyStateKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import type { PoolName } from './config.ts';

/** A short fingerprint, so a cool-down stops applying when the key at that index is replaced. */
export const keyHash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);

interface KeyStateItem {
  pool: PoolName;
  keyIndex: number;
  keyHash: string;
  coolUntil: number;
  reason: string;
}

/** Cool-downs in force, by `pool#index`, each with the hash of the key it was recorded for. */
export type Cooldowns = Map<string, { keyHash: string; coolUntil: number }>;

const id = (pool: PoolName, keyIndex: number) => `${pool}#${keyIndex}`;

/** Every cool-down still running (one Query). A failed read answers none: the chain still works, only less wisely. */
export async function readCooldowns(now = Date.now()): Promise<Cooldowns> {
  const out: Cooldowns = new Map();
  try {
    const items = await dataTable.query<KeyStateItem>({ pk: AI_KEY_STATE_PK });
    for (const it of items) {
      if (it.coolUntil > now)
        out.set(id(it.pool, it.keyIndex), { keyHash: it.keyHash, coolUntil: it.coolUntil });
    }
  } catch (err) {
    logger.warn({ err }, 'model chain: key cool-downs unreadable, trying every key');
  }
  return out;
}

export function isCooling(c: Cooldowns, pool: PoolName, keyIndex: number, key: string, now = Date.now()) {
  const s = c.get(id(pool, keyIndex));
  return s !== undefined && s.coolUntil > now && s.keyHash === keyHash(key);
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
    ...aiKeyStateKey(pool, keyIndex),
    type: 'ai-key-state',
    pool,
    keyIndex,
    keyHash: keyHash(key),
    coolUntil,
    reason,
    expiresAt: Math.floor(coolUntil / 1000) + 86_400,
  });
}
