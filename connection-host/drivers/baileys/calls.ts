import type { WACallEvent } from '@whiskeysockets/baileys';
import type { CallStatus, CallUpdate } from '#shared/events/types';
import { lidOfJid, phoneOfJid } from './jids.ts';

/** The network's call steps that mean something to a user; the rest (ringing, transport, latency) are not reported. */
const STATUS: Partial<Record<WACallEvent['status'], CallStatus>> = {
  offer: 'offer',
  accept: 'accepted',
  reject: 'rejected',
  timeout: 'missed',
};

/** How many calls a link remembers (callers to decline, calls answered): the latest few hundred. */
const CALLS_KEPT = 200;

/**
 * Baileys' `call` events in our words. Remembers each call's caller (declining needs the network's
 * id for it) and whether it was answered: a `terminate` ends an answered call, and is a missed call
 * otherwise (the caller hung up while it rang).
 */
export class CallTracker {
  private readonly calls = new Map<string, { caller: string; answered: boolean }>();

  /** The update to report for one `call` event, or undefined for steps not reported. */
  update(c: WACallEvent, phoneForLid: (lid: string) => string | undefined): CallUpdate | undefined {
    const known = this.calls.get(c.id);
    if (c.status === 'offer') this.remember(c.id, { caller: c.from, answered: false });
    if (c.status === 'accept' && known) known.answered = true;
    const status = c.status === 'terminate' ? (known?.answered ? 'ended' : 'missed') : STATUS[c.status];
    if (!status) return undefined;
    const lid = lidOfJid(c.from);
    const from = phoneOfJid(c.callerPn) ?? phoneOfJid(c.from) ?? (lid ? phoneForLid(lid) : undefined) ?? null;
    return {
      callId: c.id,
      from,
      ...(lid ? { fromLid: lid } : {}),
      video: Boolean(c.isVideo),
      group: Boolean(c.isGroup),
      status,
      timestampMs: c.date instanceof Date && !Number.isNaN(c.date.getTime()) ? c.date.getTime() : Date.now(),
    };
  }

  /** The network's id of the caller of a call that rang this link. */
  callerOf(callId: string): string | undefined {
    return this.calls.get(callId)?.caller;
  }

  private remember(id: string, call: { caller: string; answered: boolean }) {
    this.calls.set(id, call);
    if (this.calls.size > CALLS_KEPT) this.calls.delete(this.calls.keys().next().value as string);
  }
}
