import { randomBytes, randomInt } from 'node:crypto';
import type { CallFrame, ChangeFrame, MessageFrame, PollVoteFrame } from '../protocol.ts';
import { ACTIVITY_MAX, type Account } from './accounts.ts';
import { LinkingNetwork } from './linking.ts';

/**
 * What the rest of the network does to an account (the test controls under `/_sim/`): contacts
 * write, edit, vote, call; the account's phone writes or syncs its history; groups form; receipts
 * come. Messages are kept until a device acknowledges them.
 */

/**
 * Inbound messages kept per account until the device acknowledges them (docs/simulator.md): as many
 * as a test or benchmark leaves in flight, bounded for long `npm start` runs. Past either bound the
 * network refuses new messages for the account (`/_sim/inbound` answers 429) rather than forget one.
 */
export const KEPT_MAX = 2_000;
export const KEPT_MAX_BYTES = 16 * 1024 * 1024;

export class PeersNetwork extends LinkingNetwork {
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

  receipt(identifier: string, messageId: string, status: 'delivered' | 'read'): boolean {
    const a = this.find(identifier);
    if (!a?.outboxIds.has(messageId)) return false;
    this.deliver(a, { type: 'receipt', id: messageId, status });
    return true;
  }
}
