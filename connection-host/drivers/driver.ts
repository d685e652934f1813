import type { NumberCheck, PresenceState, ReadTarget } from '#shared/commands/types';
import type { LidCache } from '#shared/contacts/lid-cache';
import type { CallUpdate } from '#shared/events/types';
import type { InboundMessage, OutboundContent, OwnMessage, PollVote } from '#shared/messages/content';
import type { Restriction } from '#shared/sessions/restriction';
import type { LeaseGuard } from '../leases.ts';

/**
 * The one boundary with the messaging network. Everything network-shaped (JIDs, LIDs, protobuf,
 * disconnect codes) is converted here into our own types; nothing above this file sees it.
 */

/**
 * Why a link ended, in our words. The runtime decides what to do from `kind` alone (docs/sessions.md,
 * "Reconnect policy"); `code` is the network's status code when it gave one, shown in session info.
 * - `restart`: open a new link at once.
 * - `transient`: retried forever with capped backoff.
 * - `refused`: retried like `transient`, but RECONNECT_MAX_FAILURES in a row (no READY between)
 *   end the session as FAILED: a login the network keeps refusing (405) is a bad session.
 * - `replaced`: another client logged in with the same credentials; retried a few times only.
 * - `logged_out`, `fatal` (banned): terminal.
 */
export type LinkEnd =
  | { kind: 'restart'; code?: number }
  | { kind: 'transient' | 'refused' | 'logged_out' | 'replaced' | 'fatal'; reason: string; code?: number };

export interface LinkedIdentity {
  /** The account's phone number, digits with country code. */
  mobile: string;
}

export interface DriverEvents {
  /** A QR code to show (its text form) while linking by QR. */
  onQr(qr: string): void;
  /** A pairing code to type on the phone while linking by phone number. */
  onPairingCode(code: string): void;
  onOpen(identity: LinkedIdentity): void;
  onClose(end: LinkEnd): void;
  /**
   * A message received. `handedOn` is called once the host has it safe (on the events queue or in
   * its spool): a driver that acknowledges messages to the network does so only then, so a host
   * killed before that leaves the message with the network, which sends it again on the next link.
   */
  onInbound(
    message: Omit<InboundMessage, 'mediaKey'>,
    media?: { bytes: Uint8Array; mimetype: string },
    handedOn?: () => void,
  ): void;
  /**
   * The account wrote to a one-to-one chat from another of its devices (the business's phone). Our
   * own sends may come back here too; the events consumer knows them by id.
   */
  onOwnMessage(message: OwnMessage): void;
  /**
   * The recipient's side only. `sent` is not a receipt: the host reports it once, when `send`
   * resolves, so a driver drops the network's own server ack (docs/events.md).
   */
  onReceipt(messageId: string, status: 'delivered' | 'read'): void;
  /**
   * The network refused a message (an error ack) that no `send` is waiting for (e.g. one sent again
   * by a retry request); a refusal of a message `send` is waiting for rejects that send instead.
   */
  onSendFailed(messageId: string, reason: string): void;
  /** A message was edited or deleted for everyone, by the contact or by the account's phone. */
  onMessageChange(change: MessageChange): void;
  /** A contact voted on a poll the account sent; the options as texts (decrypted). */
  onPollVote(vote: PollVote): void;
  /**
   * Messages the phone sent at linking (history sync), already limited to the days the session
   * asked for; never called for a session that did not ask (`LinkRequest.syncHistory`).
   */
  onHistory(
    messages: Array<Omit<InboundMessage, 'mediaKey'>>,
    sync: { syncType: string; progress: number | null },
  ): void;
  /** A call to the account rang, was answered, declined, missed or ended. */
  onCall(call: CallUpdate): void;
  onContacts(contacts: Array<{ phone: string; name?: string; lid?: string }>): void;
  onGroup(group: {
    groupId: string;
    subject: string;
    participants: Array<{ phone: string; name?: string }>;
  }): void;
  onLidMapping(lid: string, phone: string): void;
  /** Any sign of life from the socket (frames, pings); feeds zombie detection. */
  onActivity(): void;
  /**
   * The network restricted the account (463, reach-out time-lock, new-chat capping), or lifted it
   * (`null`). The latest report replaces the earlier one.
   */
  onRestriction(restriction: Restriction | null): void;
}

export interface OutboundMedia {
  bytes: Uint8Array;
  mimetype: string;
}

/** An edit or deletion the network reported; `chatId` as our chats are named (digits, `<id>@g.us`, `<lid>@lid`). */
export interface MessageChange {
  messageId: string;
  chatId: string;
  change: 'edited' | 'deleted';
  text?: string;
  fromMe: boolean;
}

export interface PresenceUpdate {
  to: string;
  type: PresenceState;
}

/** The network answered a message with an error: it will not be delivered, and is not sent again. */
export class SendRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SendRefusedError';
  }
}

/**
 * The network did not acknowledge a message in time, or the link ended first: it may or may not
 * have it. Sent again with the same id, which the network treats as the same message.
 */
export class SendUnconfirmedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SendUnconfirmedError';
  }
}

export interface DriverLink {
  /**
   * Sends with the id we chose, so history, receipts and webhooks line up. Resolves once the network
   * has acknowledged the message (its server ack): that is what `sent` means. Rejects with
   * `SendRefusedError` when the network refuses it, with `SendUnconfirmedError` when no ack came.
   */
  send(messageId: string, to: string, content: OutboundContent, media?: OutboundMedia): Promise<void>;
  presence(update: PresenceUpdate): Promise<void>;
  react(to: string, messageId: string, emoji: string): Promise<void>;
  /** Read receipts for received messages of one chat; voice notes are marked played as well. */
  read(chatId: string, messages: ReadTarget[]): Promise<void>;
  pin(chatId: string, pin: boolean): Promise<void>;
  /** Replaces the text (or caption) of a message the account sent. */
  edit(chatId: string, messageId: string, text: string): Promise<void>;
  /** Deletes a message the account sent for everyone in the chat. */
  revoke(chatId: string, messageId: string): Promise<void>;
  /** Which of these numbers (digits) have an account on the network, one answer per number, in order. */
  checkNumbers(numbers: string[]): Promise<NumberCheck[]>;
  /** A status story; image and video stories come with the media the host fetched (guarded). */
  postStatus(story: {
    type: 'text' | 'image' | 'video';
    content: string;
    backgroundColor?: string;
    media?: OutboundMedia;
    /** Phone digits named in the request, besides the session's stored contacts. */
    audience?: string[];
  }): Promise<void>;
  groupAction(action: {
    action: string;
    groupId?: string;
    subject?: string;
    description?: string;
    participants?: string[];
  }): Promise<Record<string, unknown>>;
  /** Declines a call that is ringing (the caller sees it declined); the driver knows the caller by its id. */
  rejectCall(callId: string): Promise<void>;
  /** Cheap round trip used to tell a live socket from a zombie. */
  probe(): Promise<void>;
  /** Unlinks the device at the network; the stored auth state becomes useless. */
  logout(): Promise<void>;
  /** Closes the socket and keeps the auth state. */
  close(): Promise<void>;
}

export interface LinkRequest {
  tenantId: string;
  sessionId: string;
  method: 'qr' | 'phone';
  phoneNumber?: string;
  /** The shard lease the host holds; auth-state writes are refused once it has moved on. */
  lease?: LeaseGuard;
  /**
   * LID → phone as the network revealed them to this session. The runtime keeps it across links; a
   * driver that learns mappings itself fills and reads this one rather than a cache of its own.
   */
  lids?: LidCache;
  /** The session asked for the phone's history at linking: messages of the last `days` are reported. */
  syncHistory?: { days: number };
  /** The session's proxy (`http`, `https`, `socks5` URL with credentials); the link's traffic goes through it. */
  proxyUrl?: string;
}

export interface NetworkDriver {
  readonly name: 'baileys' | 'simulator';
  /** Opens a link for the session with its stored auth state (or starts linking); events follow. */
  connect(request: LinkRequest, events: DriverEvents): Promise<DriverLink>;
  /** Removes the session's stored auth state. */
  clearAuth(sessionId: string): Promise<void>;
}
