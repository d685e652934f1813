import { randomUUID } from 'node:crypto';
import { env } from '#shared/config/env';
import { listContacts } from '#shared/contacts/repository';
import {
  beat,
  bumpPlanVersion,
  heartbeatExpiries,
  leave,
  liveHosts,
  planVersion,
} from '#shared/hosts/registry';
import { logger } from '#shared/log/logger';
import { getMessage } from '#shared/messages/repository';
import { queueOfShard } from '#shared/sessions/shard';
import { CommandQueues } from './command-queues.ts';
import type { NetworkDriver } from './drivers/driver.ts';
import { createDriver } from './drivers/index.ts';
import { hostHandoff } from './handoff.ts';
import type { Presence } from './heartbeat.ts';
import { readLeases, release, take } from './leases.ts';
import { MemoryBudget } from './memory-budget.ts';
import { RuntimeRegistry } from './runtime-registry.ts';
import { loadSentMedia, SENT_MEDIA_TTL_S, SENT_POLL_TTL_S, saveSentMedia } from './sent-media.ts';
import { ShardLeases } from './shard-leases.ts';
import { resumeShard } from './shard-resume.ts';

export interface ConnectionHost {
  hostId: string;
  ownedShards(): number[];
  stop(): Promise<void>;
}

/**
 * The connection host: leases shards, keeps one live link per session of its shards, and consumes
 * the FIFO command queues of its shards. Another host takes a shard once this one's heartbeat runs
 * out, or at once when it hands the shard over.
 */
export async function startConnectionHost(
  opts: { driver?: NetworkDriver; hostId?: string } = {},
): Promise<ConnectionHost> {
  const cfg = env();
  const hostId = opts.hostId ?? cfg.HOST_ID ?? `host-${randomUUID().slice(0, 8)}`;
  const log = logger.child({ hostId });
  const driver: NetworkDriver =
    opts.driver ??
    (await createDriver(cfg.MESSAGING_DRIVER, {
      async getMessage(sessionId, messageId) {
        const rt = runtimes.get(sessionId);
        if (!rt) return undefined;
        const { tenantId } = rt.request;
        const [message, wire] = await Promise.all([
          getMessage(tenantId, sessionId, messageId),
          loadSentMedia(tenantId, sessionId, messageId),
        ]);
        return message && wire ? { ...message, wire } : message;
      },
      async rememberSentMedia(sessionId, messageId, wire, keep) {
        const rt = runtimes.get(sessionId);
        const seconds = keep === 'poll' ? SENT_POLL_TTL_S : SENT_MEDIA_TTL_S;
        if (rt) await saveSentMedia(rt.request.tenantId, sessionId, messageId, wire, seconds);
      },
      async statusAudience(sessionId) {
        const rt = runtimes.get(sessionId);
        if (!rt) return [];
        const contacts = await listContacts(rt.request.tenantId, sessionId);
        return contacts.sort((a, b) => (b.lastMsgAt ?? 0) - (a.lastMsgAt ?? 0)).map((c) => c.phone);
      },
    }));

  const runtimes = new RuntimeRegistry({
    driver,
    shardCount: cfg.LEASE_SHARDS,
    lease: (shard) => leases.guard(shard),
    runtime: {
      maxFailures: cfg.RECONNECT_MAX_FAILURES,
      zombieIdleMs: cfg.ZOMBIE_IDLE_MS,
      sendIntervalMs: cfg.SEND_INTERVAL_MS,
      reconnectBaseMs: cfg.RECONNECT_BASE_MS,
      reconnectMaxDelayMs: cfg.RECONNECT_MAX_DELAY_MS,
    },
  });
  const queueOf = (shard: number) => queueOfShard(shard, cfg.SHARD_COUNT);
  const commands = new CommandQueues(runtimes, {
    queueOf,
    heldElsewhere: (shard) => leases.heldElsewhere(shard),
  });
  const budget = new MemoryBudget(cfg.HOST_MEMORY_BUDGET_MB, log);
  const startedAt = new Date().toISOString();
  // The process id helps only where several hosts share one machine: local mode, whose AWS
  // endpoints the launcher sets (shared/aws/clients.ts).
  const pid = cfg.AWS_ENDPOINT_URL_DYNAMODB ? process.pid : undefined;
  const presence: Presence = {
    async beat() {
      await beat(
        {
          hostId,
          pid,
          shards: leases.owned(),
          ...runtimes.counts(),
          rssBytes: process.memoryUsage().rss,
          full: budget.beat(),
          busy: leases.busy(),
          startedAt,
        },
        cfg.LEASE_TTL_MS,
      );
    },
    async live() {
      return (await liveHosts()).map(({ hostId, full, sessions, shards, busy }) => ({
        hostId,
        full,
        sessions,
        shards,
        busy,
      }));
    },
    leave: () => leave(hostId),
    version: planVersion,
    bump: bumpPlanVersion,
    expiries: heartbeatExpiries,
  };
  const leases: ShardLeases = new ShardLeases(
    { hostId, shardCount: cfg.LEASE_SHARDS, ttlMs: cfg.LEASE_TTL_MS },
    {
      async acquired(shard) {
        commands.start(shard);
        log.debug({ shard }, 'shard acquired');
        await resumeShard(shard, runtimes, log);
      },
      // Both when another host took the shard and when this one hands it over: no more commands
      // taken, then the links close with their auth state kept, for the next host to resume.
      async lost(shard, why) {
        await commands.stop(shard);
        await runtimes.stopShard(shard);
        if (why === 'lost') log.warn({ shard }, 'shard lost');
        else log.debug({ shard }, 'shard handed over');
      },
      load: (shard): number => runtimes.shardLoad(shard),
      pinned: (shard): boolean => runtimes.shardPairing(shard),
      full: () => budget.full(),
      groupOf: queueOf,
    },
    log,
    { take, release, readLeases },
    presence,
  );

  // What an earlier run of this host spooled goes on now, not only once a session starts.
  void hostHandoff().start();
  await leases.start();

  return {
    hostId,
    ownedShards: () => leases.owned(),
    async stop() {
      await leases.stop();
      await commands.stopAll();
      await runtimes.stopAll();
      await leases.releaseAll();
      // The shards are free for the other hosts already; this only keeps the process up until its
      // last command receives have put back what they got.
      await commands.drained();
    },
  };
}
