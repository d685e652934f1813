import { names } from '#shared/aws/names';
import { Command } from '#shared/commands/types';
import { pollQueue, type QueuePoller } from '#shared/queue/consumer';
import { applyCommand, type CommandContext } from './commands.ts';
import { fifoBatchHandler } from './fifo-batch.ts';

/** Short, and extended while a command runs: commands held by a dead host return within this time. */
const COMMAND_VISIBILITY_SECONDS = 10;
/**
 * Commands held at once per shard. Each waiting session holds at most a receive's worth (FIFO: no
 * more of a group is handed out while some of it is in flight), so this many sessions can wait for
 * READY before the shard stops receiving.
 */
const MAX_HELD = 2000;
/**
 * How long one receive waits for a command (SQS long polling, its maximum). Each receive is a
 * billed request: at 1 s the idle hosts made a million a week (about $5 a month at four shards);
 * a command still starts as soon as it arrives, and a hand-over does not wait for it (a command the
 * last receive gets goes back to the queue at once).
 */
export const COMMAND_WAIT_SECONDS = 20;
/**
 * Local mode (the launcher sets the SQS endpoint) pays nothing per receive, and its hosts stop and
 * start all through the tests: a 1 s wait keeps their exits quick (`drained` below).
 */
const waitSeconds = () => (process.env.AWS_ENDPOINT_URL_SQS ? 1 : COMMAND_WAIT_SECONDS);

/** The session of a command body, its lane: one session's commands in order, sessions side by side. */
const sessionOf = (body: string): string | undefined => {
  const parsed = JSON.parse(body) as { sessionId?: unknown };
  return typeof parsed.sessionId === 'string' ? parsed.sessionId : undefined;
};

/**
 * One consumer per held shard's FIFO command queue. Each session has a lane of its own, so a
 * session waiting for READY (held, its visibility extended, not failed) never holds up the others.
 */
export class CommandQueues {
  private readonly consumers = new Map<number, { poller: QueuePoller; abort: AbortController }>();
  /** Stopped consumers whose last receive may still be waiting on SQS. */
  private readonly draining = new Set<Promise<void>>();

  constructor(private readonly ctx: CommandContext) {}

  start(shard: number): void {
    const abort = new AbortController();
    const handler = fifoBatchHandler(Command, (cmd) => applyCommand(cmd, this.ctx, abort.signal));
    const poller = pollQueue(names.commandQueue(shard), handler, {
      waitSeconds: waitSeconds(),
      visibilityTimeout: COMMAND_VISIBILITY_SECONDS,
      lanes: { keyOf: sessionOf, maxInFlight: MAX_HELD },
    });
    this.consumers.set(shard, { poller, abort });
  }

  /**
   * Resolves once the commands in hand are finished; nothing more is received for the shard.
   * Waits for READY are given up: those commands return to the queue for the shard's next holder.
   */
  async stop(shard: number): Promise<void> {
    const consumer = this.consumers.get(shard);
    consumer?.abort.abort(new Error(`shard ${shard} is being let go`));
    await consumer?.poller.stop();
    this.consumers.delete(shard);
    if (consumer) {
      const drained = consumer.poller.drained().finally(() => this.draining.delete(drained));
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
    await Promise.all([...this.consumers.keys()].map((shard) => this.stop(shard)));
  }
}
