import type { MessageStatus } from '../events/types.ts';
import type { MessageAnalysis } from '../messages/analysis.ts';
import { isDecryptFailed } from '../messages/content.ts';
import { listReplyOf } from '../presentation/list-reply.ts';
import { unixSeconds } from '../presentation/unix-seconds.ts';

export interface InboundWebhookPayload {
  event: 'message.inbound';
  session_id: string;
  mobid: string | null;
  sender: string | null;
  recipient: string | null;
  message_id: string;
  timestamp: number;
  content: {
    text: string | null;
    media_url: string | null;
    mimetype: string | null;
    image_description: string | null;
    ocr_text: string | null;
    document_explanation: string | null;
    video_description: string | null;
    transcription: string | null;
    confidence: number | string | null;
    /** Only on a customer's choice from a list message: the row chosen (`text` is its title). */
    list_reply?: { id: string; title: string; description: string | null };
  };
  /**
   * Only on an undecryptable message's placeholder (kind `decrypt_failed`): the network delivered a
   * message the device could not decrypt. A real message with the same `message_id` follows if the
   * sender's phone sends it again (docs/events.md, "Undecryptable messages").
   */
  decrypt_failed?: true;
}

/** What a session's event is built from besides its own fields: the session and when it happened. */
interface SessionEvent {
  sessionId: string;
  mobid?: string;
  at: number;
}

/** What every native event starts with, in this order: the event and the session it is about. */
function sessionFrame<E extends string>(event: E, p: { sessionId: string; mobid?: string }) {
  return { event, session_id: p.sessionId, mobid: p.mobid ?? null };
}

/** `message.inbound`, exactly the fields of the interface specification. */
export function inboundWebhookPayload(p: {
  sessionId: string;
  mobid?: string;
  recipient?: string;
  sender: string | null;
  message: {
    id: string;
    kind?: string;
    timestampMs: number;
    text?: string;
    caption?: string;
    mimetype?: string;
    listReply?: { id: string; title: string; description?: string };
  };
  mediaUrl: string | null;
  analysis?: MessageAnalysis;
}): InboundWebhookPayload {
  const a = p.analysis ?? {};
  return {
    ...sessionFrame('message.inbound', p),
    sender: p.sender,
    recipient: p.recipient ?? null,
    message_id: p.message.id,
    timestamp: unixSeconds(p.message.timestampMs),
    content: {
      text: p.message.text ?? p.message.caption ?? null,
      media_url: p.mediaUrl,
      mimetype: p.message.mimetype ?? null,
      image_description: a.imageDescription ?? null,
      ocr_text: a.ocrText ?? null,
      document_explanation: a.documentExplanation ?? null,
      video_description: a.videoDescription ?? null,
      transcription: a.transcription ?? null,
      confidence: a.confidence ?? null,
      ...(p.message.listReply ? { list_reply: listReplyOf(p.message.listReply) } : {}),
    },
    ...(p.message.kind && isDecryptFailed({ kind: p.message.kind }) ? { decrypt_failed: true as const } : {}),
  };
}

/** `message.status`: an outbound (or inbound) message moved to a later status. */
export function messageStatusPayload(
  p: SessionEvent & {
    messageId: string;
    chatId: string;
    direction: 'inbound' | 'outbound';
    status: MessageStatus;
    reason?: string;
  },
) {
  return {
    ...sessionFrame('message.status', p),
    message_id: p.messageId,
    direction: p.direction,
    chat_id: p.chatId,
    status: p.status,
    reason: p.reason ?? null,
    timestamp: unixSeconds(p.at),
  };
}

/** `command.result`: a session action (reaction, pin, status story, group action) finished. */
export function commandResultPayload(
  p: SessionEvent & {
    commandId: string;
    kind: string;
    status: 'succeeded' | 'failed';
    result?: Record<string, unknown>;
    error?: string;
  },
) {
  return {
    ...sessionFrame('command.result', p),
    command_id: p.commandId,
    kind: p.kind,
    status: p.status,
    result: p.result ?? null,
    error: p.error ?? null,
    timestamp: unixSeconds(p.at),
  };
}
