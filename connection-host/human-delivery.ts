import { env } from '#shared/config/env';
import type { DriverLink } from './drivers/driver.ts';

/** How long a person would take: a pause before starting, then typing at ~30 ms per character. */
export interface DeliveryTiming {
  pauseMs: number;
  typingMs: number;
}

export interface DeliveryBounds {
  pauseMinMs: number;
  pauseMaxMs: number;
  typingMinMs: number;
  typingMaxMs: number;
  msPerChar: number;
}

export const MS_PER_CHAR = 30;
/** The network drops a `composing` state after some seconds; it is sent again this often. */
export const PRESENCE_KEEPALIVE_MS = 10_000;

export function boundsFromEnv(): DeliveryBounds {
  const e = env();
  return {
    pauseMinMs: e.CHATBOT_PAUSE_MIN_MS,
    pauseMaxMs: Math.max(e.CHATBOT_PAUSE_MIN_MS, e.CHATBOT_PAUSE_MAX_MS),
    typingMinMs: e.CHATBOT_TYPING_MIN_MS,
    typingMaxMs: Math.max(e.CHATBOT_TYPING_MIN_MS, e.CHATBOT_TYPING_MAX_MS),
    msPerChar: MS_PER_CHAR,
  };
}

/** Random pause in [pauseMin, pauseMax]; typing = characters × msPerChar clamped to [typingMin, typingMax]. */
export function deliveryTiming(text: string, b: DeliveryBounds, random = Math.random): DeliveryTiming {
  const chars = [...text].length;
  return {
    pauseMs: Math.round(b.pauseMinMs + random() * (b.pauseMaxMs - b.pauseMinMs)),
    typingMs: Math.min(b.typingMaxMs, Math.max(b.typingMinMs, chars * b.msPerChar)),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Plays the person: waits the pause, shows `presence` (`composing`, or `recording` for a voice reply)
 * and keeps it alive while "typing", then runs `send`, then shows `paused`. Presence is cosmetic: a
 * failed presence update is logged by the caller's driver and never stops the message.
 */
export async function deliverHumanLike(
  link: Pick<DriverLink, 'presence'>,
  to: string,
  presence: 'composing' | 'recording',
  timing: DeliveryTiming,
  send: () => Promise<void>,
  onPresenceError: (err: unknown) => void = () => {},
): Promise<void> {
  const show = (type: 'composing' | 'recording' | 'paused') =>
    link.presence({ to, type }).catch(onPresenceError);
  await sleep(timing.pauseMs);
  await show(presence);
  let left = timing.typingMs;
  while (left > PRESENCE_KEEPALIVE_MS) {
    await sleep(PRESENCE_KEEPALIVE_MS);
    left -= PRESENCE_KEEPALIVE_MS;
    await show(presence);
  }
  await sleep(left);
  await send();
  await show('paused');
}
