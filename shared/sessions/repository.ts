import { NotFoundError } from '../http/errors.ts';
import { digitsOf } from '../phone/number.ts';
import {
  aliasKey,
  mobidKey,
  sessionKey,
  sessionsOf,
  shardIndexKeys,
  shardSessionsPk,
} from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import type { ReconnectState, Session } from './session.ts';

export async function sessionOfMobid(
  mobid: string,
): Promise<{ tenantId: string; sessionId: string } | undefined> {
  return dataTable.get<{ tenantId: string; sessionId: string }>(mobidKey(mobid));
}

/** Creates the session and its aliases (session id, mobid) in one transaction. */
export async function insertSession(s: Session): Promise<void> {
  const ok = await dataTable.transact([
    dataTable.putIfAbsentOp({
      ...sessionKey(s.tenantId, s.sessionId),
      ...shardIndexKeys(s.shard, s.tenantId, s.sessionId),
      type: 'session',
      ...s,
    }),
    dataTable.putIfAbsentOp({ ...aliasKey(s.tenantId, s.sessionId), type: 'alias', sessionId: s.sessionId }),
    dataTable.putIfAbsentOp({ ...aliasKey(s.tenantId, s.mobid), type: 'alias', sessionId: s.sessionId }),
    dataTable.putIfAbsentOp({
      ...mobidKey(s.mobid),
      type: 'mobid',
      tenantId: s.tenantId,
      sessionId: s.sessionId,
    }),
  ]);
  if (!ok) throw new Error(`session id collision for ${s.sessionId}`);
}

export async function addAlias(tenantId: string, alias: string, sessionId: string): Promise<void> {
  await dataTable.put({ ...aliasKey(tenantId, alias), type: 'alias', sessionId });
}

export async function getSession(tenantId: string, sessionId: string): Promise<Session | undefined> {
  return dataTable.get<Session>(sessionKey(tenantId, sessionId), true);
}

/**
 * Alias → session id, remembered briefly: an alias names one session for good (a mobile number can
 * move to a new session when relinked, which this short memory delays by seconds at most).
 */
const aliasMemory = new Map<string, { sessionId: string; until: number }>();
const ALIAS_MEMORY_MS = 10_000;
const ALIAS_MEMORY_MAX = 10_000;

async function sessionIdOfAlias(tenantId: string, alias: string): Promise<string | undefined> {
  const k = `${tenantId}\u0000${alias}`;
  const known = aliasMemory.get(k);
  if (known && known.until > Date.now()) return known.sessionId;
  const hit = await dataTable.get<{ sessionId: string }>(aliasKey(tenantId, alias));
  if (!hit) return undefined;
  if (aliasMemory.size >= ALIAS_MEMORY_MAX) aliasMemory.clear();
  aliasMemory.set(k, { sessionId: hit.sessionId, until: Date.now() + ALIAS_MEMORY_MS });
  return hit.sessionId;
}

/** A session id, mobid or mobile number (with or without `+`, spaces) → the tenant's session. */
export async function findSession(tenantId: string, identifier: string): Promise<Session | undefined> {
  const id = identifier.trim();
  const candidates = [id, digitsOf(id)].filter((x, i, a) => x && a.indexOf(x) === i);
  for (const alias of candidates) {
    const sessionId = await sessionIdOfAlias(tenantId, alias);
    if (sessionId) return getSession(tenantId, sessionId);
  }
  return undefined;
}

export async function requireSession(tenantId: string, identifier: string): Promise<Session> {
  const s = await findSession(tenantId, identifier);
  if (!s) throw new NotFoundError(`session ${identifier} not found`, 'SESSION_NOT_FOUND');
  return s;
}

export async function listSessions(tenantId: string): Promise<Session[]> {
  return dataTable.query<Session>({ ...sessionsOf(tenantId), ascending: true });
}

/** The ids of a tenant's sessions (the stream's poller learns from them which feed shards to read). */
export async function listSessionIds(tenantId: string): Promise<string[]> {
  const rows = await dataTable.query<Pick<Session, 'sessionId'>>({
    ...sessionsOf(tenantId),
    ascending: true,
    project: ['sessionId'],
  });
  return rows.map((r) => r.sessionId);
}

/**
 * Sessions of one shard across tenants, for the host that holds the shard. The index projects the
 * whole item but is eventually consistent: what it says may be a moment old.
 */
export async function listShardSessions(shard: number): Promise<Session[]> {
  return dataTable.query<Session>({ index: 'gsi1', pk: shardSessionsPk(shard), ascending: true });
}

/**
 * Lists a session under another shard. Sessions made before LEASE_SHARDS were listed under their
 * command queue's number; the host that finds one there moves it to its lease shard.
 */
export async function reindexSessionShard(tenantId: string, sessionId: string, shard: number): Promise<void> {
  await dataTable.update(
    sessionKey(tenantId, sessionId),
    { shard, ...shardIndexKeys(shard, tenantId, sessionId) },
    { condition: 'attribute_exists(pk)' },
  );
}

/**
 * Applies a state change only if it is newer than what is stored and, when the writer names its
 * shard lease `fence`, only if no later lease holder has written already (a host that lost its
 * shard cannot overwrite the new holder's state). Returns the updated session.
 */
export async function applySessionState(
  tenantId: string,
  sessionId: string,
  at: number,
  fields: Partial<Omit<Session, 'tenantId' | 'sessionId' | 'stateAt' | 'fence'>>,
  fence?: number,
): Promise<Session | undefined> {
  const fenced = fence !== undefined;
  return dataTable.update<Session>(
    sessionKey(tenantId, sessionId),
    { ...fields, stateAt: at, fence, updatedAt: new Date().toISOString() },
    {
      condition: `attribute_exists(pk) AND stateAt <= :at${fenced ? ' AND (attribute_not_exists(fence) OR fence <= :fence)' : ''}`,
      values: fenced ? { ':at': at, ':fence': fence } : { ':at': at },
    },
  );
}

/**
 * The host's reconnect state, written straight by the host holding the link (session info shows
 * it). Kept apart from the live status: only a newer write replaces it, and never one from a host
 * whose lease fence is older than the one that last wrote the session.
 */
export async function recordReconnectState(
  tenantId: string,
  sessionId: string,
  at: number,
  reconnect: ReconnectState,
  fence?: number,
): Promise<boolean> {
  const fenced = fence !== undefined;
  const updated = await dataTable.update<Session>(
    sessionKey(tenantId, sessionId),
    { reconnect, reconnectAt: at },
    {
      condition: `attribute_exists(pk) AND (attribute_not_exists(reconnectAt) OR reconnectAt <= :at)${fenced ? ' AND (attribute_not_exists(fence) OR fence <= :fence)' : ''}`,
      values: fenced ? { ':at': at, ':fence': fence } : { ':at': at },
    },
  );
  return Boolean(updated);
}

export async function markInactive(tenantId: string, sessionId: string): Promise<Session | undefined> {
  return dataTable.update<Session>(
    sessionKey(tenantId, sessionId),
    { dbStatus: 'inactive', updatedAt: new Date().toISOString() },
    { condition: 'attribute_exists(pk)' },
  );
}

/**
 * Changes a session's settings: the fields given are set, those named in `remove` cleared.
 * Undefined for an unknown session.
 */
export async function updateSessionSettings(
  tenantId: string,
  sessionId: string,
  set: Partial<Pick<Session, 'name' | 'rejectCalls' | 'rejectMessage' | 'proxyUrl'>>,
  remove: Array<keyof Session> = [],
): Promise<Session | undefined> {
  return dataTable.update<Session>(
    sessionKey(tenantId, sessionId),
    { ...set, updatedAt: new Date().toISOString() },
    { condition: 'attribute_exists(pk)', remove },
  );
}
