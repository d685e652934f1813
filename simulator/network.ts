import { createHash, randomBytes } from 'node:crypto';
import { groupJid, groupOfJid, userJid } from '#shared/phone/jid';
import { keep, type OutboxEntry } from './network/accounts.ts';
import { PeersNetwork } from './network/peers.ts';
import type { PresenceType } from './protocol.ts';

/**
 * The simulated messaging network: accounts, linked devices, queued frames, the outbox. It stands
 * in for the real network in tests and demos and is reached by the simulator driver over HTTP,
 * the way a device reaches the real network, so the connection host works exactly as with Baileys.
 *
 * Built in layers, each adding one concern: accounts and delivery (network/accounts.ts), linking
 * (network/linking.ts), what the rest of the network does to an account (network/peers.ts), and
 * here what a linked device asks of the network.
 */
export class SimNetwork extends PeersNetwork {
  /** Numbers without an account on the network; every other number has one. */
  private unregistered = new Set<string>();

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

  /** The device declines a call that rang it; false when no such call rang (or the device is not linked). */
  rejectCall(sessionId: string, token: string, callId: string): boolean {
    const a = this.accounts.get(sessionId);
    const caller = a?.calls.get(callId);
    if (!a || a.token !== token || !caller) return false;
    a.calls.delete(callId);
    keep(a.activity.rejectedCalls, { callId, to: caller, at: Date.now() });
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
}

/** The one network of this process (the app serves it when MESSAGING_DRIVER=simulator). */
export const simNetwork = new SimNetwork();
