import type { MessageStatus } from '../events/types.ts';
import type { MessageAnalysis } from './analysis.ts';
import type { InboundMessage, List } from './content.ts';

/** A stored message, inbound or outbound. Phone numbers are digits; `chatId` is a chat id (shared/phone/jid.ts). */
export interface StoredMessage {
  tenantId: string;
  sessionId: string;
  messageId: string;
  direction: 'inbound' | 'outbound';
  chatId: string;
  /** Sender digits (inbound: the contact, or null when only a LID is known; outbound: the session's number). */
  senderPhone: string | null;
  senderLid?: string;
  senderName?: string;
  groupId?: string;
  kind: string;
  text?: string;
  caption?: string;
  fileName?: string;
  mimetype?: string;
  mediaKey?: string;
  mediaUrl?: string;
  /** A location, contact or poll as data (`text` is its summary). */
  location?: InboundMessage['location'];
  contacts?: InboundMessage['contacts'];
  poll?: InboundMessage['poll'];
  /** Outbound `list`: the list as sent (its `text` is the body), so a reply's row can be told. */
  list?: List;
  /** Inbound: the customer chose this row of a list message. */
  listReply?: InboundMessage['listReply'];
  /**
   * Inbound media only (docs/media.md, "Pipeline"): `pending` while the media consumer analyses it
   * (the message is stored but not yet in the tenant feed, the webhook or the chatbot), `done` after.
   */
  analysisState?: 'pending' | 'done';
  /** What the analysers found; a field is null where its analysis does not apply or failed. */
  analysis?: MessageAnalysis;
  /**
   * Outbound only: `phone` when the business sent it from its own phone (another device of the
   * account), not through the service; such a message pauses the bot in its chat (docs/chatbot.md).
   */
  origin?: 'phone';
  /** Inbound only: replayed from the network's offline queue after a link came up (docs/events.md). */
  backlog?: boolean;
  /** Inbound only: from the phone's history sync at linking; not in the tenant feed, never answered. */
  history?: boolean;
  /** Inbound only: the media could not be fetched, and why (the message came without its file). */
  mediaMissing?: string;
  status: MessageStatus;
  statusReason?: string;
  /** When the message was last edited (its `text` or `caption` is the edited one). */
  editedAt?: number;
  /** When the message was deleted for everyone; its text, caption and media are gone from history. */
  deletedAt?: number;
  timestampMs: number;
  /**
   * When the message joined the tenant feed (stored, or published after its analysis): the feed's
   * order and the stream's event id. A message the network sent long ago (replayed from its offline
   * queue) joins the feed when it arrives, so every process's stream poller finds it in its window.
   */
  feedAtMs?: number;
  statusAt: number;
}

const ORDER: Record<MessageStatus, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/** Statuses only move forward (`failed` is final), so a late or repeated receipt changes nothing. */
export function statusRank(s: MessageStatus): number {
  return ORDER[s];
}
