import { randomUUID } from 'node:crypto';
import { names } from '../aws/names.ts';
import { env } from '../config/env.ts';
import { sendJson } from '../queue/send.ts';
import { shardOf } from '../sessions/shard.ts';
import type { Command } from './types.ts';

export const newCommandId = () => `cmd_${randomUUID().replace(/-/g, '')}`;

/** Hands a command to whichever host holds the session's shard; ordered per session. */
export async function dispatchCommand(command: Command): Promise<void> {
  const shard = shardOf(command.sessionId, env().SHARD_COUNT);
  await sendJson(names.commandQueue(shard), command, {
    groupId: command.sessionId,
    dedupId: command.commandId,
  });
}
