import type { Logger } from '#shared/log/logger';
import { getSession, listShardSessions, reindexSessionShard } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import type { RuntimeRegistry } from './runtime-registry.ts';

export interface ShardSessionStore {
  listShardSessions: typeof listShardSessions;
  getSession: typeof getSession;
  reindexSessionShard?: typeof reindexSessionShard;
}

/**
 * Sessions of one shard started at once. A host resumes its shards side by side too (held-shards.ts),
 * so with 1,024 lease shards a dead host's sessions already start many at a time; with few shards
 * (local mode's 64) a shard holds dozens, which one after the other took seconds.
 */
export const RESUME_PARALLEL = 4;

/** Ended by the network or by the user: a new host must not bring these back. */
const resumable = (s: Session | undefined): s is Session =>
  s?.dbStatus === 'active' && s.status !== 'LOGGED_OUT' && s.status !== 'DISCONNECTED';

/**
 * Brings up the sessions of a shard this host has just taken. The shard index can lag the table,
 * so it only names candidates: each one still listed active is read once, consistently, and that
 * read both decides (a session deleted or logged out a moment ago stays down) and builds the runtime.
 * A session listed deleted needs no second look: deletion is never undone.
 *
 * A session made before LEASE_SHARDS is listed under its command queue's number: it is moved to its
 * lease shard's list, and resumed here only if this host holds that shard too (otherwise by the
 * shard's holder, the next time the shard changes hands).
 */
export async function resumeShard(
  shard: number,
  registry: Pick<RuntimeRegistry, 'runtimeFor' | 'shardOf' | 'holdsShard'>,
  log: Logger,
  store: ShardSessionStore = { listShardSessions, getSession, reindexSessionShard },
): Promise<void> {
  const listed = (await store.listShardSessions(shard)).filter((l) => l.dbStatus === 'active');
  const resume = async (one: (typeof listed)[number]) => {
    try {
      const own = registry.shardOf(one.sessionId);
      if (own !== shard) {
        await store.reindexSessionShard?.(one.tenantId, one.sessionId, own);
        if (!registry.holdsShard(own)) return;
      }
      const session = await store.getSession(one.tenantId, one.sessionId);
      if (resumable(session)) await registry.runtimeFor(session, true, session);
    } catch (err) {
      log.error({ err, sessionId: one.sessionId }, 'resume failed');
    }
  };
  // A few at a time: each start is a few reads and writes and a connection, mostly waiting.
  const queue = listed.values();
  const worker = async () => {
    // The workers share one iterator: each takes the next session when its last one is done.
    for (const one of queue) await resume(one);
  };
  await Promise.all(Array.from({ length: Math.min(RESUME_PARALLEL, listed.length) }, worker));
}
