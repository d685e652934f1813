import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { List } from '#shared/messages/content';
import { groupJid, groupOfJid, userJid } from '#shared/phone/jid';
import { digitsOf } from '#shared/phone/number';
import type { CallFrame, ChangeFrame, Frame, MessageFrame, PollVoteFrame } from './protocol.ts';

/**
 * The simulated messaging network: accounts, linked devices, queued frames, the outbox. It stands
 * in for the real network in tests and demos and is reached by the simulator driver over HTTP,
 * the way a device reaches the real network, so the connection host works exactly as with Baileys.
 */

export interface OutboxEntry {
  id: string;
  to: string;
  type: string;
  text?: string;
  caption?: string;
  fileName?: string;
  mimetype?: string;
  sha256?: string;
  durationMs?: number;
  /** The message this one replies to. */
  quotedId?: string;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: Array<{ name: string; vcard: string }>;
  poll?: { question: string; options: string[]; multiple: boolean };
  list?: List;
  presence: Array<{ type: PresenceType; at: number }>;
  at: number;
}

export type PresenceType = 'composing' | 'recording' | 'paused' | 'available' | 'unavailable';

/** What the device did in a chat besides sending (`GET /_sim/activity`). */
export interface DeviceActivity {
  reads: Array<{ to: string; ids: string[]; played: string[]; at: number }>;
  presence: Array<{ to: string; type: PresenceType; at: number }>;
  /** Calls the device declined: `to` is the caller. */
  rejectedCalls: Array<{ callId: string; to: string; at: number }>;
}

/** The activity kept per account: the latest, enough for any test, bounded for long `npm start` runs. */
const ACTIVITY_MAX = 500;

/**
 * Inbound messages kept per account until the device acknowledges them (docs/simulator.md): as many
 * as a test or benchmark leaves in flight, bounded for long `npm start` runs. Past either bound the
 * network refuses new messages for the account (`/_sim/inbound` answers 429) rather than forget one.
 */
export const KEPT_MAX = 2_000;
export const KEPT_MAX_BYTES = 16 * 1024 * 1024;

export interface Link {
  id: number;
  push(frame: Frame): void;
  end(): void;
}

interface Account {
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

const LINK_DELAY_MS = 300;

export class SimNetwork {
  private accounts = new Map<string, Account>();
  private nextLinkId = 1;
  /** Sessions whose phone waits for `scan` instead of linking by itself (a test that must see the QR). */
  private held = new Set<string>();
  /** Numbers without an account on the network; every other number has one. */
  private unregistered = new Set<string>();

  private account(sessionId: string): Account {
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

  newLinkId(): number {
    return this.nextLinkId++;
  }

  /**
   * A device connects. With a valid token it is opened at once; without one it goes through QR or
   * pairing-code linking, which the simulated phone completes after a short delay.
   */
  attach(
    sessionId: string,
    link: Link,
    auth: { token?: string; method: 'qr' | 'phone'; phoneNumber?: string },
  ): void {
    const a = this.account(sessionId);
    if (auth.token) {
      if (!a.token || a.token !== auth.token) {
        link.push({ type: 'close', reason: 'logged_out', detail: 'device was logged out (401)' });
        link.end();
        return;
      }
      this.replaceLink(a, link);
      link.push({ type: 'open', mobile: a.mobile! });
      this.flush(a);
      return;
    }
    this.replaceLink(a, link);
    if (auth.method === 'phone') {
      link.push({ type: 'pairing-code', code: randomBytes(4).toString('hex').toUpperCase() });
    } else {
      link.push({ type: 'qr', qr: `2@${randomBytes(24).toString('base64')},sim,${sessionId}` });
    }
    const scan = () => {
      if (a.link !== link) return;
      a.mobile = auth.phoneNumber ?? `91${randomInt(7_000_000_000, 9_999_999_999)}`;
      a.token = randomBytes(16).toString('hex');
      link.push({ type: 'linked', token: a.token, mobile: a.mobile });
      link.push({ type: 'open', mobile: a.mobile });
      this.flush(a);
    };
    setTimeout(() => {
      if (this.held.has(sessionId)) a.scan = scan;
      else scan();
    }, LINK_DELAY_MS);
  }

  detach(sessionId: string, link: Link): void {
    const a = this.accounts.get(sessionId);
    if (a?.link === link) a.link = undefined;
  }

  private replaceLink(a: Account, link: Link): void {
    if (a.frozen && a.frozen !== link) {
      a.frozen.end();
      a.frozen = undefined;
    }
    if (a.link && a.link !== link) {
      a.link.push({
        type: 'close',
        reason: 'replaced',
        detail: 'connection replaced by another device (440)',
      });
      a.link.end();
    }
    a.link = link;
  }

  /**
   * A link opened: first what earlier links were given and never acknowledged (in order; a message
   * from behind a LID with its mapping again, which that link may not have passed on either), then
   * what waited for a link.
   */
  private flush(a: Account): void {
    if (!a.link || !a.token) return;
    const link = a.link;
    const frames = a.pending.splice(0);
    const waiting = new Set(frames.flatMap((f) => (f.type === 'message' ? [f.id] : [])));
    for (const { frame } of a.kept.values()) {
      if (waiting.has(frame.id)) continue;
      const phone = frame.lid ? lidPhone(a, frame.lid) : undefined;
      if (frame.lid && phone) link.push({ type: 'lid-mapping', lid: frame.lid, phone });
      link.push(frame);
    }
    for (const f of frames) link.push(f);
  }

  /** The device has the messages `ids` safe: the network forgets them. Answers false for a wrong token. */
  ack(sessionId: string, token: string, ids: string[]): boolean {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return false;
    for (const id of ids) {
      const kept = a.kept.get(id);
      if (!kept) continue;
      a.kept.delete(id);
      a.keptBytes -= kept.bytes;
    }
    return true;
  }

  /** Messages kept for `identifier` until a device acknowledges them (`GET /_sim/unacked`). */
  unacked(identifier: string): string[] | undefined {
    const a = this.find(identifier);
    return a && [...a.kept.keys()];
  }

  private keepUntilAcked(a: Account, frame: MessageFrame): void {
    const bytes = JSON.stringify(frame).length;
    a.kept.set(frame.id, { frame, bytes });
    a.keptBytes += bytes;
  }

  private full(a: Account, m: { text?: string }): boolean {
    return a.kept.size >= KEPT_MAX || a.keptBytes + (m.text?.length ?? 0) > KEPT_MAX_BYTES;
  }

  private deliver(a: Account, frame: Frame): void {
    if (a.link && a.token && a.frozen !== a.link) a.link.push(frame);
    else a.pending.push(frame);
  }

  private deliverMessage(a: Account, frame: MessageFrame): void {
    this.keepUntilAcked(a, frame);
    this.deliver(a, frame);
  }

  /** Someone on the network edits or deletes for everyone a message it sent the account. */
  change(identifier: string, f: Omit<ChangeFrame, 'type'>): boolean {
    const a = this.find(identifier);
    if (!a) return false;
    this.deliver(a, { type: 'change', ...f });
    return true;
  }

  /**
   * A contact votes on a poll the account sent (in its outbox): answers the vote's id, `unknown-poll`
   * when the account sent no such poll, `unknown-option` when an option is not one of the poll's.
   */
  vote(
    identifier: string,
    v: Omit<PollVoteFrame, 'type' | 'id' | 'timestampMs'>,
  ): string | 'no-account' | 'unknown-poll' | 'unknown-option' {
    const a = this.find(identifier);
    if (!a) return 'no-account';
    const poll = a.outbox.find((m) => m.id === v.pollId && m.poll)?.poll;
    if (!poll) return 'unknown-poll';
    if (v.options.some((o) => !poll.options.includes(o))) return 'unknown-option';
    const id = `SIMV${randomBytes(8).toString('hex').toUpperCase()}`;
    this.deliver(a, { type: 'poll-vote', ...v, id, timestampMs: Date.now() });
    return id;
  }

  /** A call rings the account, or a later step of it; `callId` names the call. */
  call(identifier: string, f: Omit<CallFrame, 'type' | 'timestampMs'>): boolean {
    const a = this.find(identifier);
    if (!a) return false;
    if (f.status === 'offer') a.calls.set(f.callId, f.from);
    else a.calls.delete(f.callId); // answered or over: no longer to decline
    if (a.calls.size > ACTIVITY_MAX) a.calls.delete(a.calls.keys().next().value as string);
    this.deliver(a, { type: 'call', ...f, timestampMs: Date.now() });
    return true;
  }

  /** The device declines a call that rang it; false when no such call rang (or the device is not linked). */
  rejectCall(sessionId: string, token: string, callId: string): boolean {
    const a = this.accounts.get(sessionId);
    const caller = a?.calls.get(callId);
    if (!a || a.token !== token || !caller) return false;
    a.calls.delete(callId);
    keep(a.activity.rejectedCalls, { callId, to: caller, at: Date.now() });
    return true;
  }

  /** The phone sends the device its history (messages contacts sent before); undefined when not linked. */
  history(identifier: string, messages: Array<Omit<MessageFrame, 'type' | 'id'>>): string[] | undefined {
    const a = this.find(identifier);
    if (!a) return undefined;
    const frames = messages.map((m) => ({
      type: 'message' as const,
      ...m,
      id: `SIMH${randomBytes(8).toString('hex').toUpperCase()}`,
    }));
    this.deliver(a, { type: 'history', messages: frames });
    return frames.map((f) => f.id);
  }

  /**
   * Someone on the network writes to the account: answers the message's id, or `full` when the
   * account already keeps as many unacknowledged messages as it may (`KEPT_MAX`, `KEPT_MAX_BYTES`).
   */
  inbound(
    identifier: string,
    m: Omit<MessageFrame, 'type' | 'id' | 'timestampMs'> & { lidMode?: boolean },
  ): string | 'full' | undefined {
    const a = this.find(identifier);
    if (!a) return undefined;
    if (this.full(a, m)) return 'full';
    const id = `SIM${randomBytes(8).toString('hex').toUpperCase()}`;
    const timestampMs = Math.max(Date.now(), (a.lastInboundMs ?? 0) + 1);
    a.lastInboundMs = timestampMs;
    const { lidMode, ...rest } = m;
    if (lidMode) {
      const lid =
        a.lids.get(m.from) ?? `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
      if (!a.lids.has(m.from)) {
        a.lids.set(m.from, lid);
        this.deliver(a, { type: 'lid-mapping', lid, phone: m.from });
      }
      this.deliverMessage(a, { type: 'message', ...rest, from: '', lid, id, timestampMs });
    } else {
      this.deliverMessage(a, { type: 'message', ...rest, id, timestampMs });
    }
    return id;
  }

  /**
   * The account's own phone writes to `to`: every linked device sees it as the account's own message.
   * `id` lets a test replay the echo of a message the service sent (same id) instead of a new one.
   */
  ownMessage(identifier: string, m: { to: string; text: string; id?: string }): string | undefined {
    const a = this.find(identifier);
    if (!a) return undefined;
    const id = m.id ?? `SIMOWN${randomBytes(7).toString('hex').toUpperCase()}`;
    this.deliver(a, {
      type: 'own-message',
      id,
      to: m.to,
      kind: 'text',
      text: m.text,
      timestampMs: Date.now(),
    });
    return id;
  }

  createGroup(identifier: string, subject: string, participants: Array<{ phone: string; name?: string }>) {
    const a = this.find(identifier);
    if (!a) return undefined;
    const groupId = `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100, 999)}`;
    this.deliver(a, { type: 'group', groupId, subject, participants });
    return groupId;
  }

  /** Group management by a linked device; `create` makes a group the device is a member of. */
  groupAction(
    sessionId: string,
    token: string,
    a: { action: string; groupId?: string; subject?: string; description?: string; participants?: string[] },
  ): { groupId: string; action: string } | undefined {
    const acc = this.accounts.get(sessionId);
    if (!acc || acc.token !== token) return undefined;
    let groupId = a.groupId ? (groupOfJid(a.groupId) ?? a.groupId) : undefined;
    if (a.action === 'create') {
      groupId = this.createGroup(
        sessionId,
        a.subject ?? 'group',
        (a.participants ?? []).map((phone) => ({ phone })),
      );
    }
    const id = `G${randomBytes(6).toString('hex')}`;
    acc.outbox.push({
      id,
      to: groupJid(groupId ?? ''),
      type: `group-${a.action}`,
      text: a.subject ?? a.description ?? a.participants?.join(','),
      presence: [],
      at: Date.now(),
    });
    return { groupId: groupJid(groupId ?? ''), action: a.action };
  }

  /** A linked device sends. The same id twice is one message, as on the real network. */
  send(
    sessionId: string,
    token: string,
    m: Omit<OutboxEntry, 'presence' | 'at'> & { media?: Uint8Array },
  ): boolean {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return false;
    if (a.outboxIds.has(m.id)) return true;
    const { media, ...entry } = m;
    const presence = a.presence.get(m.to) ?? [];
    a.presence.delete(m.to);
    a.outbox.push({
      ...entry,
      sha256: media ? createHash('sha256').update(media).digest('hex') : undefined,
      presence,
      at: Date.now(),
    });
    a.outboxIds.add(m.id);
    setTimeout(() => this.deliver(a, { type: 'receipt', id: m.id, status: 'sent' }), 10);
    return true;
  }

  presence(sessionId: string, token: string, to: string, type: PresenceType): boolean {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return false;
    const list = a.presence.get(to) ?? [];
    const at = Date.now();
    list.push({ type, at });
    a.presence.set(to, list);
    keep(a.activity.presence, { to, type, at });
    return true;
  }

  /** Read receipts the device sent for messages of a chat (`played`: voice notes among them). */
  read(sessionId: string, token: string, to: string, ids: string[], played: string[]): boolean {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return false;
    keep(a.activity.reads, { to, ids, played, at: Date.now() });
    return true;
  }

  /** Marks numbers (digits) as having an account or not (`POST /_sim/numbers`). */
  setRegistered(numbers: string[], registered: boolean): void {
    for (const n of numbers) {
      if (registered) this.unregistered.delete(n);
      else this.unregistered.add(n);
    }
  }

  /** Which numbers have an account, as the device asks the network; undefined when not linked. */
  checkNumbers(
    sessionId: string,
    token: string,
    numbers: string[],
  ): Array<{ number: string; exists: boolean; jid: string | null }> | undefined {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return undefined;
    return numbers.map((number) => {
      const exists = !this.unregistered.has(number);
      return { number, exists, jid: exists ? userJid(number) : null };
    });
  }

  activity(identifier: string): DeviceActivity | undefined {
    return this.find(identifier)?.activity;
  }

  /** True when the device's link is alive; a frozen link answers nothing, like a dead socket. */
  probe(sessionId: string, token: string): boolean {
    const a = this.accounts.get(sessionId);
    return a?.token === token && !(a.frozen && a.frozen === a.link);
  }

  /** The phone of `sessionId` will not scan by itself: it waits for `scan`. */
  holdLinking(sessionId: string): void {
    this.held.add(sessionId);
  }

  /**
   * The phone scans the QR (or takes the pairing code) of a held session now, or as soon as it is
   * shown. Answers false for a session no device ever connected as.
   */
  scan(sessionId: string): boolean {
    this.held.delete(sessionId);
    const a = this.accounts.get(sessionId);
    if (!a) return false;
    const scan = a.scan;
    a.scan = undefined;
    scan?.();
    return true;
  }

  /** The link stays open but nothing more flows on it: what a zombie socket looks like. */
  freeze(identifier: string): boolean {
    const a = this.find(identifier);
    if (!a?.link) return false;
    a.frozen = a.link;
    return true;
  }

  receipt(identifier: string, messageId: string, status: 'delivered' | 'read'): boolean {
    const a = this.find(identifier);
    if (!a?.outboxIds.has(messageId)) return false;
    this.deliver(a, { type: 'receipt', id: messageId, status });
    return true;
  }

  outbox(identifier: string): OutboxEntry[] | undefined {
    return this.find(identifier)?.outbox;
  }

  disconnect(identifier: string): boolean {
    const a = this.find(identifier);
    if (!a?.link) return false;
    const link = a.link;
    a.link = undefined;
    link.push({ type: 'close', reason: 'transient', detail: 'connection lost (428)' });
    link.end();
    return true;
  }

  logout(sessionId: string, token: string): void {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return;
    a.token = undefined;
    // Messages for the unlinked device are not shown to the next device linked by QR.
    a.kept.clear();
    a.keptBytes = 0;
    a.link?.end();
    a.link = undefined;
  }
}

/** The one network of this process (the app serves it when MESSAGING_DRIVER=simulator). */
export const simNetwork = new SimNetwork();

const lidPhone = (a: Account, lid: string): string | undefined => {
  for (const [phone, l] of a.lids) if (l === lid) return phone;
  return undefined;
};

function keep<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > ACTIVITY_MAX) list.splice(0, list.length - ACTIVITY_MAX);
}
