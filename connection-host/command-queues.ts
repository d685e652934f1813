import { names } from '#shared/aws/names';
import { Command } from '#shared/commands/types';
import { pollQueue } from '#shared/queue/consumer';
import { applyCommand, type CommandContext } from './commands.ts';
import { fifoBatchHandler } from './fifo-batch.ts';

/** Short, and extended while a command runs: commands held by a dead host return within this time. */
const COMMAND_VISIBILITY_SECONDS = 10;

/** One consumer per held shard's FIFO command queue. */
export class CommandQueues {
  private readonly consumers = new Map<number, { stop(): Promise<void> }>();

  constructor(private readonly ctx: CommandContext) {}

  start(shard: number): void {
    const handler = fifoBatchHandler(Command, (cmd) => applyCommand(cmd, this.ctx));
    this.consumers.set(
      shard,
      pollQueue(names.commandQueue(shard), handler, {
        waitSeconds: 1,
        visibilityTimeout: COMMAND_VISIBILITY_SECONDS,
      }),
    );
  }

  /** Resolves once the batch in hand is finished; nothing more is received for the shard. */
  async stop(shard: number): Promise<void> {
    await this.consumers.get(shard)?.stop();
    this.consumers.delete(shard);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.consumers.values()].map((c) => c.stop()));
    this.consumers.clear();
  }
}
