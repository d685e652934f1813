/**
 * A session's lease shard: FNV-1a over its id, stable across processes and languages. Its command
 * queue is the same hash over SHARD_COUNT, which equals `shard mod SHARD_COUNT` because LEASE_SHARDS
 * is a multiple of SHARD_COUNT (shared/config/env.ts): a host holding lease shard s consumes queue
 * `queueOfShard(s)`.
 */
export function shardOf(sessionId: string, shardCount: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) {
    h ^= sessionId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shardCount;
}

/** The command queue of a lease shard. */
export const queueOfShard = (shard: number, queueCount: number): number => shard % queueCount;

/**
 * The lease shards a deployment with `queueCount` command queues runs: about 1024 (LEASE_SHARDS'
 * default), a multiple of the queue count as LEASE_SHARDS must be (the cloud stack sets it).
 */
export const leaseShardsFor = (queueCount: number): number => queueCount * Math.floor(1024 / queueCount);
