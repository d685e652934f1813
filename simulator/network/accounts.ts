import type { z } from 'zod';
import { digitsOf } from '#shared/phone/number';
import type { DeviceSend, Frame, MessageFrame, PresenceType } from '../protocol.ts';

/**
 * The simulated network's bottom layer: its accounts, what each keeps (frames waiting for a link,
 * the outbox, the device's activity), and handing a frame to the account's link or queue. The
 * layers above add linking (linking.ts), what the rest of the network does to an account
 * (peers.ts), and what a linked device asks (network.ts).
 */

/** A message the account's device sent, as the network took it (`GET /_sim/outbox`). */
export interface OutboxEntry extends Omit<z.infer<typeof DeviceSend>, 'token' | 'mediaBase64'> {
  /** The media's SHA-256 (hex), when it carried media. */
  sha256?: string;
  /** What the device showed the chat before this message (typing, recording …). */
  presence: Array<{ type: PresenceType; at: number }>;
  at: number;
}

/** What the device did in a chat besides sending (`GET /_sim/activity`). */
export interface DeviceActivity {
  reads: Array<{ to: string; ids: string[]; played: string[]; at: number }>;
  presence: Array<{ to: string; type: PresenceType; at: number }>;
  /** Calls the device declined: `to` is the caller. */
  rejectedCalls: Array<{ callId: string; to: string; at: number }>;
}

/** The activity kept per account: the latest, enough for any test, bounded for long `npm start` runs. */
export const ACTIVITY_MAX = 500;

export interface Link {
  id: number;
  push(frame: Frame): void;
  end(): void;
}

export interface Account {
  sessionId: string;
  /** A link the network has silently stopped serving (a half-open socket). */
  frozen?: Link;
  mobile?: string;
  token?: string;
  link?: Link;
  pending: Frame[];
  /**
   * Message frames not yet acknowledged by a device, oldest first, whether pushed to a link or still
   * pending: the real network keeps a message until a device receipts it and sends it again on the
   * next connection, so a link that dies (its host killed) loses nothing.
   */
  kept: Map<string, { frame: MessageFrame; bytes: number }>;
  keptBytes: number;
  outbox: OutboxEntry[];
  outboxIds: Set<string>;
  presence: Map<string, OutboxEntry['presence']>;
  activity: DeviceActivity;
  lids: Map<string, string>;
  /** A held link's scan, waiting for `scan` (simulator test control). */
  scan?: () => void;
  /** Calls ringing the account: call id → caller digits. */
  calls: Map<string, string>;
  /** Timestamp of the last message written to the account: each next one is later (order keys follow it). */
  lastInboundMs?: number;
}

export class Accounts {
  protected accounts = new Map<string, Account>();

  protected account(sessionId: string): Account {
    let a = this.accounts.get(sessionId);
    if (!a) {
      a = {
        sessionId,
        pending: [],
        kept: new Map(),
        keptBytes: 0,
        outbox: [],
        outboxIds: new Set(),
        presence: new Map(),
        activity: { reads: [], presence: [], rejectedCalls: [] },
        lids: new Map(),
        calls: new Map(),
      };
      this.accounts.set(sessionId, a);
    }
    return a;
  }

  /** Finds an account by session id or linked mobile number. */
  find(identifier: string): Account | undefined {
    const direct = this.accounts.get(identifier);
    if (direct) return direct;
    const digits = digitsOf(identifier);
    for (const a of this.accounts.values()) if (a.mobile && a.mobile === digits) return a;
    return undefined;
  }

  /** To the account's live link, or queued until one opens (a frozen link is not live). */
  protected deliver(a: Account, frame: Frame): void {
    if (a.link && a.token && a.frozen !== a.link) a.link.push(frame);
    else a.pending.push(frame);
  }

  activity(identifier: string): DeviceActivity | undefined {
    return this.find(identifier)?.activity;
  }

  outbox(identifier: string): OutboxEntry[] | undefined {
    return this.find(identifier)?.outbox;
  }
}

/** The phone behind a LID the network gave the account, if it gave one. */
export const lidPhone = (a: Account, lid: string): string | undefined => {
  for (const [phone, l] of a.lids) if (l === lid) return phone;
  return undefined;
};

/** Appends to a bounded activity list, dropping the oldest past `ACTIVITY_MAX`. */
export function keep<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > ACTIVITY_MAX) list.splice(0, list.length - ACTIVITY_MAX);
}
