import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { names } from '#shared/aws/names';
import { Command } from '#shared/commands/types';
import { env } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import { getMessage } from '#shared/messages/repository';
import { pollQueue, processRecords } from '#shared/queue/consumer';
import { getSession, listShardSessions } from '#shared/sessions/repository';
import { shardOf } from '#shared/sessions/shard';
import { applyCommand, type CommandContext } from './commands.ts';
import type { NetworkDriver } from './drivers/driver.ts';
import { createDriver } from './drivers/index.ts';
import { emitEvent } from './emit.ts';
import { type LeaseGuard, release, renew, tryAcquire } from './leases.ts';
import { SessionRuntime } from './session-runtime.ts';

/** Short, and extended while a command runs: commands held by a dead host return within this time. */
const COMMAND_VISIBILITY_SECONDS = 10;
/** Renew well inside the TTL, and look for released shards often (a clean stop frees them at once). */
const TICK_MS = (ttl: number) => Math.max(500, Math.min(2000, Math.floor(ttl / 3)));

export interface ConnectionHost {
  hostId: string;
  ownedShards(): number[];
  stop(): Promise<void>;
}

/**
 * The connection host: leases shards, keeps one live link per session of its shards, and consumes
 * each owned shard's FIFO command queue. Another host takes a shard once this one stops renewing.
 */
export async function startConnectionHost(
  opts: { driver?: NetworkDriver; hostId?: string } = {},
): Promise<ConnectionHost> {
  const cfg = env();
  const hostId = opts.hostId ?? cfg.HOST_ID ?? `host-${randomUUID().slice(0, 8)}`;
  const log = logger.child({ hostId });
  const runtimes = new Map<string, SessionRuntime>();
  const driver =
    opts.driver ??
    (await createDriver(cfg.MESSAGING_DRIVER, {
      async getMessage(sessionId, messageId) {
        const rt = runtimes.get(sessionId);
        return rt ? getMessage(rt.request.tenantId, sessionId, messageId) : undefined;
      },
    }));
  const shards = new Map<number, { stop(): Promise<void> }>();
  const fences = new Map<number, number>();
  const ttl = cfg.LEASE_TTL_MS;

  const leaseOf = (shard: number): LeaseGuard | undefined => {
    const fence = fences.get(shard);
    return fence === undefined ? undefined : { shard, owner: hostId, fence };
  };

  /** Runtimes being created: a resume and a command for the same session must share one. */
  const creating = new Map<string, Promise<SessionRuntime | undefined>>();

  async function createRuntime(ref: { tenantId: string; sessionId: string }) {
    const session = await getSession(ref.tenantId, ref.sessionId);
    if (session?.dbStatus !== 'active') return undefined;
    const rt = new SessionRuntime(
      {
        tenantId: session.tenantId,
        sessionId: session.sessionId,
        method: session.method,
        phoneNumber: session.phoneNumber,
        lease: leaseOf(session.shard),
      },
      driver,
      {
        maxFailures: cfg.RECONNECT_MAX_FAILURES,
        zombieIdleMs: cfg.ZOMBIE_IDLE_MS,
        sendIntervalMs: cfg.SEND_INTERVAL_MS,
        reconnectBaseMs: cfg.RECONNECT_BASE_MS,
        fence: () => fences.get(session.shard),
      },
    );
    runtimes.set(ref.sessionId, rt);
    await rt.start();
    return rt;
  }

  const ctx: CommandContext = {
    runtimeFor(ref, create) {
      const existing = runtimes.get(ref.sessionId);
      if (existing || !create) return Promise.resolve(existing);
      let pending = creating.get(ref.sessionId);
      if (!pending) {
        pending = createRuntime(ref).finally(() => creating.delete(ref.sessionId));
        creating.set(ref.sessionId, pending);
      }
      return pending;
    },
    forget(sessionId) {
      runtimes.delete(sessionId);
    },
    async logoutUnlinked(ref) {
      await driver.clearAuth(ref.sessionId);
      await emitEvent({
        kind: 'session.status',
        tenantId: ref.tenantId,
        sessionId: ref.sessionId,
        at: Date.now(),
        status: 'LOGGED_OUT',
        reason: 'logged out by request (no live link: auth state removed here only)',
        fence: fences.get(shardOf(ref.sessionId, cfg.SHARD_COUNT)),
      });
    },
  };

  /** Records of one session stay in order; different sessions proceed side by side. */
  async function handleBatch(records: SQSRecord[]) {
    const groups = new Map<string, SQSRecord[]>();
    for (const r of records) {
      const g = r.attributes?.MessageGroupId ?? r.messageId;
      groups.set(g, [...(groups.get(g) ?? []), r]);
    }
    const failures: Array<{ itemIdentifier: string }> = [];
    await Promise.all(
      [...groups.values()].map(async (group) => {
        for (let i = 0; i < group.length; i++) {
          const { batchItemFailures } = await processRecords([group[i]!], Command, (cmd) =>
            applyCommand(cmd, ctx),
          );
          if (batchItemFailures.length) {
            // Later commands of this session must not overtake the failed one.
            failures.push(...group.slice(i).map((r) => ({ itemIdentifier: r.messageId })));
            return;
          }
        }
      }),
    );
    return { batchItemFailures: failures };
  }

  async function takeShard(shard: number) {
    shards.set(
      shard,
      pollQueue(names.commandQueue(shard), (e) => handleBatch(e.Records), {
        waitSeconds: 1,
        visibilityTimeout: COMMAND_VISIBILITY_SECONDS,
      }),
    );
    log.info({ shard }, 'shard acquired');
    const sessions = await listShardSessions(shard);
    for (const s of sessions) {
      const session = await getSession(s.tenantId, s.sessionId);
      if (session?.dbStatus !== 'active' || ['LOGGED_OUT', 'DISCONNECTED'].includes(session.status)) continue;
      await ctx
        .runtimeFor(s, true)
        .catch((err) => log.error({ err, sessionId: s.sessionId }, 'resume failed'));
    }
  }

  async function dropShard(shard: number) {
    await shards.get(shard)?.stop();
    shards.delete(shard);
    fences.delete(shard);
    for (const [id, rt] of runtimes) {
      if (shardOf(id, cfg.SHARD_COUNT) !== shard) continue;
      await rt.stop();
      runtimes.delete(id);
    }
    log.warn({ shard }, 'shard lost');
  }

  async function tick() {
    for (let shard = 0; shard < cfg.SHARD_COUNT; shard++) {
      try {
        if (shards.has(shard)) {
          if (!(await renew(shard, hostId, ttl))) await dropShard(shard);
        } else {
          const lease = await tryAcquire(shard, hostId, ttl);
          if (!lease) continue;
          fences.set(shard, lease.fence);
          await takeShard(shard);
        }
      } catch (err) {
        log.error({ err, shard }, 'lease tick failed');
      }
    }
  }

  await tick();
  let ticking = Promise.resolve();
  const timer = setInterval(() => {
    ticking = ticking.then(tick);
  }, TICK_MS(ttl));

  return {
    hostId,
    ownedShards: () => [...shards.keys()].sort((a, b) => a - b),
    async stop() {
      clearInterval(timer);
      await ticking;
      await Promise.all([...shards.values()].map((s) => s.stop()));
      await Promise.all([...runtimes.values()].map((rt) => rt.stop()));
      await Promise.all([...shards.keys()].map((s) => release(s, hostId).catch(() => undefined)));
      shards.clear();
      runtimes.clear();
    },
  };
}
