import type { Logger } from '#shared/log/logger';
import { getSession, listShardSessions } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import type { RuntimeRegistry } from './runtime-registry.ts';

export interface ShardSessionStore {
  listShardSessions: typeof listShardSessions;
  getSession: typeof getSession;
}

/** Ended by the network or by the user: a new host must not bring these back. */
const resumable = (s: Session | undefined): s is Session =>
  s?.dbStatus === 'active' && s.status !== 'LOGGED_OUT' && s.status !== 'DISCONNECTED';

/**
 * Brings up the sessions of a shard this host has just taken. The shard index can lag the table,
 * so it only names candidates: each one still listed active is read once, consistently, and that
 * read both decides (a session deleted or logged out a moment ago stays down) and builds the runtime.
 * A session listed deleted needs no second look: deletion is never undone.
 */
export async function resumeShard(
  shard: number,
  registry: Pick<RuntimeRegistry, 'runtimeFor'>,
  log: Logger,
  store: ShardSessionStore = { listShardSessions, getSession },
): Promise<void> {
  for (const listed of await store.listShardSessions(shard)) {
    if (listed.dbStatus !== 'active') continue;
    try {
      const session = await store.getSession(listed.tenantId, listed.sessionId);
      if (resumable(session)) await registry.runtimeFor(session, true, session);
    } catch (err) {
      log.error({ err, sessionId: listed.sessionId }, 'resume failed');
    }
  }
}
