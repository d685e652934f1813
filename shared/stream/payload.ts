import type { MessageAnalysis } from '../messages/analysis.ts';
import type { StoredMessage } from '../messages/message.ts';
import { listReplyOf } from '../presentation/list-reply.ts';

/** The tenant SSE stream payload of the interface specification. */
export interface StreamPayload {
  event: 'message:inbound';
  sessionId: string;
  sender: string | null;
  sender_name: string;
  type: string;
  message: string;
  timestamp: number;
  media: {
    hasMedia: boolean;
    mediaType: string | null;
    mediaUrl: string | null;
    stt_transcription: string | null;
    confidence: string | null;
    ocr_text: string | null;
  };
  /** Only on a customer's choice from a list message: the row chosen (`message` is its title). */
  list_reply?: { id: string; title: string; description: string | null };
}

const MEDIA_KINDS = new Set(['image', 'audio', 'voice', 'video', 'document', 'sticker']);

const LABELS: Record<string, string> = {
  image: '[Image]',
  audio: '[Audio]',
  voice: '[Voice note]',
  video: '[Video]',
  document: '[Document]',
  sticker: '[Sticker]',
  location: '[Location]',
  contact: '[Contact]',
  reaction: '[Reaction]',
  poll: '[Poll]',
  unknown: '[Unsupported message]',
  decrypt_failed: '[Message not decrypted yet]',
};

/** The text, else the caption, else a label for the kind (a document label carries its file name). */
export function messageLabel(m: Pick<StoredMessage, 'kind' | 'text' | 'caption' | 'fileName'>): string {
  if (m.text) return m.text;
  if (m.caption) return m.caption;
  const label = LABELS[m.kind] ?? `[${m.kind}]`;
  return m.kind === 'document' && m.fileName ? `${label} ${m.fileName}` : label;
}

/** 0.87 → "87%"; strings pass through. */
function percentage(v: number | string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  return `${Math.round((v <= 1 ? v * 100 : v) * 10) / 10}%`;
}

export function streamPayload(
  m: Pick<
    StoredMessage,
    | 'sessionId'
    | 'kind'
    | 'text'
    | 'caption'
    | 'fileName'
    | 'mimetype'
    | 'senderName'
    | 'timestampMs'
    | 'listReply'
  > & { mediaKey?: string; mediaUrl?: string },
  sender: string | null,
  mediaUrl: string | null,
  analysis: MessageAnalysis = {},
): StreamPayload {
  const hasMedia = MEDIA_KINDS.has(m.kind) || Boolean(m.mediaKey || m.mediaUrl);
  return {
    event: 'message:inbound',
    sessionId: m.sessionId,
    sender,
    sender_name: m.senderName ?? sender ?? '',
    type: m.kind,
    message: messageLabel(m),
    timestamp: m.timestampMs,
    media: {
      hasMedia,
      mediaType: hasMedia ? m.kind : null,
      mediaUrl: hasMedia ? mediaUrl : null,
      stt_transcription: analysis.transcription ?? null,
      confidence: percentage(analysis.confidence),
      ocr_text: analysis.ocrText ?? null,
    },
    ...(m.listReply ? { list_reply: listReplyOf(m.listReply) } : {}),
  };
}
