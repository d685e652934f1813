import type { Logger } from '#shared/log/logger';
import type { DriverEvents } from '../driver.ts';

/**
 * The host's event callbacks as one link hands them on: muted for link-state events once the host
 * closed the link itself, guarded against host exceptions, and without a second report of a
 * refusal that a waiting `send` already answers.
 */

/** Every event, named once: a Record, so a callback added to DriverEvents cannot be left unwrapped. */
const EVENTS: Record<keyof DriverEvents, true> = {
  onQr: true,
  onPairingCode: true,
  onOpen: true,
  onClose: true,
  onInbound: true,
  onOwnMessage: true,
  onReceipt: true,
  onSendFailed: true,
  onMessageChange: true,
  onPollVote: true,
  onCall: true,
  onHistory: true,
  onContacts: true,
  onGroup: true,
  onLidMapping: true,
  onActivity: true,
  onRestriction: true,
};
const EVENT_NAMES = Object.keys(EVENTS) as Array<keyof DriverEvents>;
/** Link-state events; data events (messages received before the close) still go through. */
const MUTED = new Set<keyof DriverEvents>(['onQr', 'onPairingCode', 'onOpen', 'onClose', 'onActivity']);

/**
 * Drops link-state events once the host has closed the link itself (it knows, and must not get a
 * second reconnect trigger), and keeps host exceptions out of Baileys.
 */
export function muteable(events: DriverEvents, log: Logger) {
  let muted = false;
  const wrapped = {} as Record<keyof DriverEvents, (...args: unknown[]) => void>;
  for (const name of EVENT_NAMES) {
    wrapped[name] = (...args: unknown[]) => {
      if (muted && MUTED.has(name)) return;
      try {
        (events[name] as (...a: unknown[]) => void).apply(events, args);
      } catch (err) {
        log.error({ err, event: name }, 'driver event handler threw');
      }
    };
  }
  return { events: wrapped as unknown as DriverEvents, mute: () => (muted = true) };
}

/** Ids kept for `ms` after they were remembered. */
function recentIds(ms: number) {
  const ids = new Set<string>();
  return {
    has: (id: string) => ids.has(id),
    remember(id: string) {
      ids.add(id);
      setTimeout(() => ids.delete(id), ms).unref();
    },
  };
}

/** The sends a link is waiting on: their refusals are their own answer (they reject). */
export interface AwaitedSends {
  /** Ids whose `send` waits for the network's ack now. */
  awaited: Set<string>;
  /** Ids whose `send` rejected as refused lately: a later error ack of theirs is not news. */
  refused: { remember(id: string): void };
}

/**
 * `events` whose `onSendFailed` leaves out the messages a `send` is waiting for or has just been
 * refused: a refusal of a message `send` waits for is that send's answer, reported once, there.
 */
export function sendAwareEvents(events: DriverEvents): { events: DriverEvents; sends: AwaitedSends } {
  const awaited = new Set<string>();
  const refused = recentIds(60_000);
  return {
    events: {
      ...events,
      onSendFailed: (id, reason) => {
        if (!awaited.has(id) && !refused.has(id)) events.onSendFailed(id, reason);
      },
    },
    sends: { awaited, refused },
  };
}
