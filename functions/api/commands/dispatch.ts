import { randomUUID } from 'node:crypto';
import { names } from '#shared/aws/names';
import type { Command } from '#shared/commands/types';
import { env } from '#shared/config/env';
import { commandGroup } from '#shared/queue/lane-keys';
import { sendJson } from '#shared/queue/send';
import { shardOf } from '#shared/sessions/shard';

export const newCommandId = () => `cmd_${randomUUID().replace(/-/g, '')}`;

/** Hands a command to whichever host holds the session's shard; ordered per session. */
export async function dispatchCommand(command: Command): Promise<void> {
  const shard = shardOf(command.sessionId, env().SHARD_COUNT);
  await sendJson(names.commandQueue(shard), command, {
    groupId: commandGroup(command.sessionId),
    dedupId: command.commandId,
  });
}
