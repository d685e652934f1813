import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import type { Command } from '#shared/commands/types';
import { type Logger, logger } from '#shared/log/logger';
import { getSession } from '#shared/sessions/repository';
import { commandDoneKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { type DriverLink, type OutboundMedia, SendRefusedError } from './drivers/driver.ts';
import { emitEvent } from './emit.ts';
import { boundsFromEnv, deliverHumanLike, deliveryTiming } from './human-delivery.ts';
import { fetchMedia, MediaError, speak } from './media.ts';
import { SessionEndedError } from './ready-waiters.ts';
import type { SessionRuntime } from './session-runtime.ts';
import { cancelTyping, pauseTypingAfter } from './typing-timers.ts';

const UPLOAD_DELETE_DELAY_MS = 5_000;

export interface CommandContext {
  runtimeFor(
    ref: { tenantId: string; sessionId: string },
    create: boolean,
  ): Promise<SessionRuntime | undefined>;
  forget(sessionId: string): void;
  /** Logs out a session that has no live link here: removes its auth state and reports LOGGED_OUT. */
  logoutUnlinked(ref: { tenantId: string; sessionId: string }): Promise<void>;
  /** Drops the session's link and connects again at once (a fresh runtime if it had ended). */
  reconnect(ref: { tenantId: string; sessionId: string }): Promise<void>;
}

/**
 * Applies one command. A command already done is skipped, so a redelivered SQS message never sends
 * twice; a crash between sending and marking done re-sends with the same message id, which the
 * network treats as the same message.
 *
 * A command for a session that is not READY waits for READY as long as that takes, held (invisible)
 * by its consumer rather than failed: waiting is not a failure, so a session's backlog is never
 * dead-lettered for an outage, however long. Only a session that ended for good (logged out,
 * failed, disconnected) answers its commands with a failure: a send is reported `failed` with the
 * reason. `signal` aborts the wait when the consumer stops (the shard moves): the command then
 * returns to the queue for the next holder.
 */
export async function applyCommand(cmd: Command, ctx: CommandContext, signal?: AbortSignal): Promise<void> {
  if (await dataTable.get(commandDoneKey(cmd.commandId), true)) return;
  const log = logger.child({ sessionId: cmd.sessionId, commandId: cmd.commandId, kind: cmd.kind });

  switch (cmd.kind) {
    case 'connect': {
      const session = await getSession(cmd.tenantId, cmd.sessionId);
      if (session?.dbStatus === 'active') await ctx.runtimeFor(cmd, true);
      break;
    }
    case 'reconnect': {
      // Done once the new attempt has started; READY (or not) follows as session status.
      let error: string | undefined;
      try {
        await ctx.reconnect(cmd);
      } catch (err) {
        error = (err as Error).message;
      }
      await emitEvent({
        kind: 'command.result',
        tenantId: cmd.tenantId,
        sessionId: cmd.sessionId,
        at: Date.now(),
        commandId: cmd.commandId,
        ok: !error,
        ...(error ? { error } : { result: { reconnecting: true } }),
      });
      break;
    }
    case 'logout': {
      // The session is already inactive, so no runtime is created just to log it out.
      const rt = await ctx.runtimeFor(cmd, false);
      if (rt) await rt.logout();
      else await ctx.logoutUnlinked(cmd);
      ctx.forget(cmd.sessionId);
      break;
    }
    case 'send': {
      const rt = await requireRuntime(cmd, ctx);
      const failed = (reason: string) =>
        rt.emit({ kind: 'message.status', messageId: cmd.messageId, status: 'failed', reason });
      const waited = await ready(rt, signal);
      if (!waited.ok) {
        await failed(waited.reason);
        break;
      }
      const { link } = waited;
      let media: OutboundMedia | undefined;
      let content = cmd.content;
      if (content.mediaUrl || content.speech) {
        try {
          if (content.speech) {
            const spoken = await speak(content.speech);
            media = spoken;
            content = { ...content, durationSeconds: content.durationSeconds ?? spoken.durationSeconds };
          } else media = await fetchMedia(content);
        } catch (err) {
          if (!(err instanceof MediaError)) throw err;
          log.warn({ reason: err.message }, 'media refused');
          await failed(err.message);
          break;
        }
      }
      let failure: string | undefined;
      cancelTyping(cmd.sessionId, cmd.to);
      const send = async () => {
        failure = await sendAcknowledged(rt, link, { ...cmd, content }, media, signal, log);
      };
      if (cmd.delivery?.humanLike) {
        const text = cmd.content.text ?? cmd.content.caption ?? cmd.content.speech?.text ?? '';
        await deliverHumanLike(
          link,
          cmd.to,
          cmd.delivery.presence,
          deliveryTiming(text, boundsFromEnv()),
          send,
          (err) => log.warn({ err }, 'presence update failed'),
        );
      } else await send();
      // The one report of `sent` (or `failed`): the send resolves on the network's ack of this id,
      // and the driver reports no ack of its own (docs/events.md).
      await (failure
        ? failed(failure)
        : rt.emit({ kind: 'message.status', messageId: cmd.messageId, status: 'sent' }));
      if (cmd.content.uploadKey) scheduleUploadDeletion(cmd.content.uploadKey);
      break;
    }
    case 'react':
    case 'pin':
    case 'read':
    case 'presence':
    case 'check':
    case 'edit':
    case 'delete':
    case 'status':
    case 'group': {
      const rt = await requireRuntime(cmd, ctx);
      const waited = await ready(rt, signal);
      if (!waited.ok) {
        await rt.emit({ kind: 'command.result', commandId: cmd.commandId, ok: false, error: waited.reason });
        break;
      }
      const { link } = waited;
      try {
        let result: Record<string, unknown> = {};
        if (cmd.kind === 'react') await link.react(cmd.to, cmd.messageId, cmd.emoji);
        else if (cmd.kind === 'pin') await link.pin(cmd.chatId, cmd.pin);
        else if (cmd.kind === 'read') await link.read(cmd.chatId, cmd.messages);
        else if (cmd.kind === 'presence') {
          await link.presence({ to: cmd.chatId, type: cmd.state });
          if (cmd.pauseAfterMs)
            pauseTypingAfter(cmd.sessionId, cmd.chatId, cmd.pauseAfterMs, () =>
              link.presence({ to: cmd.chatId, type: 'paused' }),
            );
          else cancelTyping(cmd.sessionId, cmd.chatId);
        } else if (cmd.kind === 'check') result = { numbers: await link.checkNumbers(cmd.numbers) };
        else if (cmd.kind === 'edit') {
          await link.edit(cmd.chatId, cmd.messageId, cmd.text);
          await rt.emit({ kind: 'message.changed', ...editOf(cmd) });
        } else if (cmd.kind === 'delete') {
          // Deleting for this service only asks nothing of the network: history forgets it.
          if (cmd.forEveryone) await link.revoke(cmd.chatId, cmd.messageId);
          await rt.emit({ kind: 'message.changed', ...deletionOf(cmd) });
        } else if (cmd.kind === 'status') {
          const media =
            cmd.type === 'text' ? undefined : await fetchMedia({ kind: cmd.type, mediaUrl: cmd.content });
          await link.postStatus({ ...cmd, media });
        } else result = await link.groupAction(cmd);
        await rt.emit({ kind: 'command.result', commandId: cmd.commandId, ok: true, result });
      } catch (err) {
        await rt.emit({
          kind: 'command.result',
          commandId: cmd.commandId,
          ok: false,
          error: (err as Error).message,
        });
      }
      break;
    }
  }
  await dataTable.put({
    ...commandDoneKey(cmd.commandId),
    expiresAt: Math.floor(Date.now() / 1000) + 86_400,
  });
}

/** Sends of one message, each on a READY link and each waiting for the ack, before it is `failed`. */
export const SEND_ATTEMPTS = 3;

/**
 * Sends until the network acknowledges the message; answers why not when it never will. A refusal
 * (error ack) is final. No ack (or a link that ends first) may mean the message is lost on a dead
 * link: the link is probed at once (a failed probe reconnects it), and the message is sent again
 * with the same id, which the network treats as the same message, on the link READY next, up to
 * SEND_ATTEMPTS sends in all.
 */
async function sendAcknowledged(
  rt: SessionRuntime,
  first: DriverLink,
  cmd: Extract<Command, { kind: 'send' }>,
  media: OutboundMedia | undefined,
  signal: AbortSignal | undefined,
  log: Logger,
): Promise<string | undefined> {
  let link = first;
  for (let attempt = 1; ; attempt++) {
    // A host that lost the session (a later epoch) must not send for it: thrown, the command goes
    // back to its queue for the session's new holder.
    if (!(await rt.holds())) throw new SessionMovedError(cmd.sessionId);
    try {
      await rt.pacer.wait();
      await link.send(cmd.messageId, cmd.to, cmd.content, media);
      return undefined;
    } catch (err) {
      if (err instanceof SendRefusedError) return err.reason;
      const reason = (err as Error).message;
      if (attempt >= SEND_ATTEMPTS)
        return `not acknowledged by the network after ${attempt} sends; last: ${reason}`;
      log.warn({ err, attempt }, 'send not acknowledged; sending again with the same id');
      await rt.checkLink();
      const waited = await ready(rt, signal);
      if (!waited.ok) return waited.reason;
      link = waited.link;
    }
  }
}

/** A send refused here: another host runs the session now. */
export class SessionMovedError extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} is run by another host now: send refused here`);
  }
}

/**
 * The session's link once READY; for a session that ended for good, why the command cannot run.
 * Anything else (the consumer stopping, the runtime stopped here) is thrown: the command returns.
 */
async function ready(
  rt: SessionRuntime,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; link: DriverLink } | { ok: false; reason: string }> {
  try {
    return { ok: true, link: await rt.whenReady(undefined, signal) };
  } catch (err) {
    if (err instanceof SessionEndedError) return { ok: false, reason: err.message };
    throw err;
  }
}

async function requireRuntime(cmd: Command, ctx: CommandContext): Promise<SessionRuntime> {
  const rt = await ctx.runtimeFor(cmd, true);
  if (!rt) throw new Error(`session ${cmd.sessionId} is not active`);
  return rt;
}

function scheduleUploadDeletion(key: string): void {
  setTimeout(() => {
    s3Client()
      .send(new DeleteObjectCommand({ Bucket: names.mediaBucket(), Key: key }))
      .catch((err) => logger.warn({ err, key }, 'upload deletion failed; the lifecycle rule will remove it'));
  }, UPLOAD_DELETE_DELAY_MS).unref();
}

const editOf = (cmd: Extract<Command, { kind: 'edit' }>) => ({
  messageId: cmd.messageId,
  chatId: cmd.chatId,
  change: 'edited' as const,
  text: cmd.text,
  fromMe: true,
});

const deletionOf = (cmd: Extract<Command, { kind: 'delete' }>) => ({
  messageId: cmd.messageId,
  chatId: cmd.chatId,
  change: 'deleted' as const,
  fromMe: cmd.fromMe,
  forEveryone: cmd.forEveryone,
});
