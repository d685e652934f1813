import type { Logger } from '#shared/log/logger';
import { getSession, listShardSessions, reindexSessionShard } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import type { RuntimeRegistry } from './runtime-registry.ts';

export interface ShardSessionStore {
  listShardSessions: typeof listShardSessions;
  getSession: typeof getSession;
  reindexSessionShard?: typeof reindexSessionShard;
}

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
  for (const listed of await store.listShardSessions(shard)) {
    if (listed.dbStatus !== 'active') continue;
    try {
      const own = registry.shardOf(listed.sessionId);
      if (own !== shard) {
        await store.reindexSessionShard?.(listed.tenantId, listed.sessionId, own);
        if (!registry.holdsShard(own)) continue;
      }
      const session = await store.getSession(listed.tenantId, listed.sessionId);
      if (resumable(session)) await registry.runtimeFor(session, true, session);
    } catch (err) {
      log.error({ err, sessionId: listed.sessionId }, 'resume failed');
    }
  }
}
