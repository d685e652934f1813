import { META } from './access.ts';

// Keys without a tenant: the simulator's mobid lookup and the connection host's own bookkeeping.
/**
 * The model chain's key cool-downs (the service's own provider keys, not a tenant's): one partition,
 * one item per pool and key fingerprint (a short hash: the key itself is never stored), read with one
 * Query per model call.
 */
export const AI_KEY_STATE_PK = 'AI#KEYSTATE';
export const aiKeyStateKey = (pool: string, keyHash: string) => ({
  pk: AI_KEY_STATE_PK,
  sk: `${pool}#${keyHash}`,
});

/** mobids are globally unique; tools without a tenant (the simulator) find the session by them. */
export const mobidKey = (mobid: string) => ({ pk: `MOBID#${mobid}`, sk: META });
export const commandDoneKey = (commandId: string) => ({ pk: `CMDDONE#${commandId}`, sk: META });
/**
 * A shard's lease: every shard's in one partition, read whole by a host when the plan's version
 * moved (or now and then). Written only when the shard changes hands, so the partition sees a
 * write per move, not per renewal.
 */
export const leaseKey = (shard: number) => ({ pk: 'LEASES', sk: `SHARD#${String(shard).padStart(4, '0')}` });
export const leasesOf = () => ({ pk: 'LEASES', skBeginsWith: 'SHARD#' });
/** A connection host's heartbeat; all hosts in one partition, read whole with the leases. */
export const hostKey = (hostId: string) => ({ pk: 'HOSTS', sk: `HOST#${hostId}` });
export const hostsOf = () => ({ pk: 'HOSTS', skBeginsWith: 'HOST#' });
/**
 * The plan's version: one small item every host reads each tick, bumped by a host whose change the
 * others must plan on (connection-host/shard-leases.ts). Its own partition, apart from the
 * heartbeats' writes.
 */
export const planVersionKey = () => ({ pk: 'HOSTPLAN', sk: META });
const shardPk = (shard: number) => `SHARD#${shard}`;
/** Where a session is listed for the host holding its shard (gsi1). */
export const shardIndexKeys = (shard: number, tenantId: string, sessionId: string) => ({
  gsi1pk: shardPk(shard),
  gsi1sk: `${tenantId}#${sessionId}`,
});
export const shardSessionsPk = shardPk;

// The auth table: one partition per session.

export const authPk = (sessionId: string) => `AUTH#${sessionId}`;
export const AUTH_CREDS_SK = 'creds';
export const authCredsKey = (sessionId: string) => ({ pk: authPk(sessionId), sk: AUTH_CREDS_SK });
/** The session's epoch: which shard holder may write its auth state and send for it (session-fence.ts). */
export const AUTH_EPOCH_SK = 'epoch';
export const authEpochKey = (sessionId: string) => ({ pk: authPk(sessionId), sk: AUTH_EPOCH_SK });
/** A Signal key (or any other typed value) of the network's auth state. */
export const authValueSk = (type: string, id: string) => `${type}#${id}`;
/** Part `i` of a value too large for one item. */
export const authPartSk = (sk: string, i: number) => `${sk}#part#${i}`;
