import type { WASocket } from '@whiskeysockets/baileys';
import type { OutboundContent } from '#shared/messages/content';
import { type OutboundMedia, SendRefusedError, SendUnconfirmedError } from '../driver.ts';
import type { AwaitedSends } from './host-events.ts';
import { serverAck, withinMs } from './network-acks.ts';
import type { LinkContext } from './options.ts';
import { quotedStub, rawMessage, sentWire, toJid, toMessageContent } from './outbound.ts';

/**
 * `DriverLink.send`: hands one message to the network with our id and resolves on the network's
 * ack (that is what `sent` means). The network form of a sent media message or poll is kept for
 * retries and votes (`rememberSentMedia`).
 */
export async function sendMessage(
  link: LinkContext & { sends: AwaitedSends; rememberSent(id: string): void },
  messageId: string,
  to: string,
  content: OutboundContent,
  media?: OutboundMedia,
): Promise<void> {
  const { sock, opts, sends } = link;
  const jid = toJid(to);
  const quoted = content.quotedId
    ? quotedStub(jid, content.quotedId, await link.known(content.quotedId))
    : undefined;
  link.rememberSent(messageId);
  // Written to the socket is not taken by the network: `sent` waits for the server's ack.
  const acked = serverAck(sock, messageId, opts.sendAckTimeoutMs ?? 20_000, 'message');
  sends.awaited.add(messageId);
  try {
    let sent: Awaited<ReturnType<WASocket['sendMessage']>>;
    const uploadMs = opts.mediaUploadTimeoutMs ?? 60_000;
    try {
      const raw = rawMessage(content);
      const handing = raw
        ? sock.relayMessage(jid, raw, { messageId }).then(() => undefined)
        : sock.sendMessage(jid, toMessageContent(content, media), {
            messageId,
            ...(quoted ? { quoted } : {}),
            ...(media ? { mediaUploadTimeoutMs: uploadMs } : {}),
          });
      // Baileys bounds each upload attempt, not its upload-host lookup nor the attempts together:
      // a stalled upload must not hold the session's outbound queue. Sent again later with the
      // same id, a late first hand-over is the same message to the network.
      sent = media ? await withinMs(handing, 2 * uploadMs, 'the media upload') : await handing;
    } catch (err) {
      acked.cancel();
      throw new SendUnconfirmedError(`the message was not handed to the network: ${(err as Error).message}`);
    }
    const poll = content.kind === 'poll';
    const wire = (media || poll) && opts.rememberSentMedia ? sentWire(sent?.message) : undefined;
    if (wire)
      await opts
        .rememberSentMedia?.(link.sessionId, messageId, wire, poll ? 'poll' : 'media')
        .catch((err) => link.log.warn({ err, messageId }, 'keeping the sent media for retries failed'));
    await acked.result;
  } catch (err) {
    if (err instanceof SendRefusedError) sends.refused.remember(messageId);
    throw err;
  } finally {
    sends.awaited.delete(messageId);
  }
}
