import type { Message } from '@aws-sdk/client-sqs';
import { names } from '#shared/aws/names';
import { queueUrl } from '#shared/aws/queue-url';
import { Command } from '#shared/commands/types';
import { runtimeEnv } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import { commandLane, sessionOfCommandGroup } from '#shared/queue/lane-keys';
import { SQS_MAX_WAIT_SECONDS } from '#shared/queue/limits';
import { type MessageHandler, pollQueue, type QueuePoller } from '#shared/queue/poller';
import { observeAge } from '#shared/queue/received';
import { changeVisibility } from '#shared/queue/visibility';
import { applyCommand, type CommandContext } from './commands.ts';
import { fifoBatchHandler } from './fifo-batch.ts';

/** Short, and extended while a command runs: commands held by a dead host return within this time. */
const COMMAND_VISIBILITY_SECONDS = 10;
/**
 * Commands held at once per queue. Each waiting session holds at most a receive's worth (FIFO: no
 * more of a group is handed out while some of it is in flight), so this many sessions can wait for
 * READY before the queue stops receiving.
 */
const MAX_HELD = 2000;
/**
 * How long one receive waits for a command (SQS long polling, its maximum). Each receive is a
 * billed request: at 1 s the idle hosts made a million a week (about $5 a month at four queues);
 * a command still starts as soon as it arrives, and a hand-over does not wait for it (a command the
 * last receive gets goes back to the queue at once).
 */
export const COMMAND_WAIT_SECONDS = SQS_MAX_WAIT_SECONDS;
/**
 * Local mode (the launcher sets the SQS endpoint) pays nothing per receive, and its hosts stop and
 * start all through the tests: a 1 s wait keeps their exits quick (`drained` below).
 */
const waitSeconds = () => (runtimeEnv().AWS_ENDPOINT_URL_SQS ? 1 : COMMAND_WAIT_SECONDS);

/**
 * How long a command for a shard this host does not hold stays hidden before it is received again.
 * While another live host holds the shard (as this host last read the leases), it is visible again
 * at once the first times, then after 1 s, after the 60th receive 5 s: its holder consumes the same
 * queue and takes it within about as many receives as hosts share the queue (hosts that balance
 * sessions share queues), and a holder that does not (starting up, or failing to receive) still has
 * over 12 minutes before the dead-letter queue. With no live holder (its host died, the TTL not yet
 * run out; a shard being handed over) it waits longer and longer, up to 20 s, so it costs few
 * receives before the next holder takes it: about an hour before the dead-letter queue
 * (shared/aws/resources.ts commandQueue, maxReceiveCount).
 */
export const IMMEDIATE_BOUNCES = 4;
/** Receives at once for a command whose shard a live host holds, before one a second. */
export const IMMEDIATE_BOUNCES_HELD = 8;
/** Receives a second apart after those, before one every 5 s (a holder slow to take it: starting up). */
export const SECOND_BOUNCES_HELD = 60;
export const bounceSeconds = (receiveCount: number, heldElsewhere = false): number => {
  if (heldElsewhere)
    return receiveCount <= IMMEDIATE_BOUNCES_HELD ? 0 : receiveCount <= SECOND_BOUNCES_HELD ? 1 : 5;
  return receiveCount <= IMMEDIATE_BOUNCES ? 0 : Math.min(20, 2 ** (receiveCount - IMMEDIATE_BOUNCES - 1));
};

export interface CommandRouting {
  /** The command queue of a shard. */
  queueOf(shard: number): number;
  /** Whether another live host holds the shard, as this host last read the leases. */
  heldElsewhere?(shard: number): boolean;
}

/**
 * One consumer per command queue of the shards this host holds; a queue feeds many shards
 * (LEASE_SHARDS over SHARD_COUNT queues), which several hosts may share. A command whose session's
 * shard this host does not hold goes back to the queue for the holder (`bounceSeconds`); the lease
 * plan gathers each host's shards on few queues, so that is rare. Each session has a lane of its
 * own, so a session waiting for READY (held, its visibility extended, not failed) never holds up
 * the others.
 */
export class CommandQueues {
  private readonly consumers = new Map<number, QueuePoller>();
  /** Stopped consumers whose last receive may still be waiting on SQS. */
  private readonly draining = new Set<Promise<void>>();
  /** Held shards per queue; a queue is consumed while it has one. */
  private readonly shardsOf = new Map<number, Set<number>>();
  /** Per held shard: aborted when it is let go, so waits for READY give up and commands return. */
  private readonly aborts = new Map<number, AbortController>();

  constructor(
    private readonly ctx: CommandContext & { shardOf(sessionId: string): number },
    private readonly routing: CommandRouting,
  ) {}

  start(shard: number): void {
    this.aborts.set(shard, new AbortController());
    const queue = this.routing.queueOf(shard);
    const shards = this.shardsOf.get(queue) ?? new Set<number>();
    shards.add(shard);
    this.shardsOf.set(queue, shards);
    if (this.consumers.has(queue)) return;
    const name = names.commandQueue(queue);
    const apply = fifoBatchHandler(Command, (cmd) => {
      const signal = this.aborts.get(this.ctx.shardOf(cmd.sessionId))?.signal;
      if (!signal) throw new Error(`shard of session ${cmd.sessionId} was let go meanwhile`);
      return applyCommand(cmd, this.ctx, signal);
    });
    const consumer = pollQueue(name, this.bouncing(name, apply), {
      waitSeconds: waitSeconds(),
      visibilityTimeout: COMMAND_VISIBILITY_SECONDS,
      lanes: { keyOf: commandLane, maxInFlight: MAX_HELD },
    });
    this.consumers.set(queue, consumer);
  }

  /**
   * Resolves once the shard's commands in hand are finished (waits for READY are given up: those
   * commands return to the queue for the shard's next holder); the queue's consumer stops with the
   * last held shard it feeds.
   */
  async stop(shard: number): Promise<void> {
    this.aborts.get(shard)?.abort(new Error(`shard ${shard} is being let go`));
    this.aborts.delete(shard);
    const queue = this.routing.queueOf(shard);
    const shards = this.shardsOf.get(queue);
    shards?.delete(shard);
    if (shards?.size) return;
    this.shardsOf.delete(queue);
    const consumer = this.consumers.get(queue);
    this.consumers.delete(queue);
    await consumer?.stop();
    if (consumer) {
      const drained = consumer.drained().finally(() => this.draining.delete(drained));
      this.draining.add(drained);
    }
  }

  /**
   * Resolves once every stopped consumer's last receive has ended (within its wait),
   * having put back what it got: before the process exits, so no command is left hidden in a
   * receive that no process reads.
   */
  async drained(): Promise<void> {
    await Promise.all([...this.draining]);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.aborts.keys()].map((shard) => this.stop(shard)));
  }

  /**
   * Hands the commands of held shards to the command handler, parsed, as the poller received them;
   * puts the others back for their holder.
   */
  private bouncing(queue: string, apply: MessageHandler): MessageHandler {
    return async (messages) => {
      const mine: Message[] = [];
      const others: Message[] = [];
      for (const m of messages) {
        const shard = this.shardOfMessage(m);
        // Only shards started here and not being let go: a leaving shard's commands go to its next holder.
        const here = shard === undefined || this.aborts.has(shard);
        (here ? mine : others).push(m);
      }
      if (others.length) await this.putBack(queue, others);
      const now = Date.now();
      for (const m of mine) observeAge(queue, m.Attributes?.SentTimestamp, now);
      const failed = mine.length ? await apply(mine) : [];
      return [...failed, ...others];
    };
  }

  /** The lease shard of a command's session, from its FIFO group (none: not a session's command). */
  private shardOfMessage(m: Message): number | undefined {
    const group = m.Attributes?.MessageGroupId;
    const sessionId = group === undefined ? undefined : sessionOfCommandGroup(group);
    return sessionId === undefined ? undefined : this.ctx.shardOf(sessionId);
  }

  private async putBack(queue: string, messages: Message[]): Promise<void> {
    try {
      await changeVisibility(
        await queueUrl(queue),
        messages.map((m) => {
          const shard = this.shardOfMessage(m);
          const held = shard !== undefined && !!this.routing.heldElsewhere?.(shard);
          return {
            receiptHandle: m.ReceiptHandle,
            seconds: bounceSeconds(Number(m.Attributes?.ApproximateReceiveCount ?? '1'), held),
          };
        }),
      );
    } catch (err) {
      // Left as they are, they return after the visibility timeout.
      logger.warn({ err, queue }, 'putting commands back failed');
    }
  }
}
