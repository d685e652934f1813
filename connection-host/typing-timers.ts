/**
 * Typing shown for a bounded time (the Cloud API's typing indicator: "until the reply or 25 s"):
 * the network keeps `composing` until told otherwise, so the host sends `paused` when the time is up,
 * unless a message to the chat came first (sending ends the indicator on its own, and a later
 * `paused` could cut short the typing of the next reply). Per host process, keyed by session and chat.
 */
const timers = new Map<string, ReturnType<typeof setTimeout>>();

const keyOf = (sessionId: string, chatId: string) => `${sessionId}\u0000${chatId}`;

/** Calls `pause` after `ms` unless `cancelTyping` for the chat comes first; a new start replaces the old. */
export function pauseTypingAfter(sessionId: string, chatId: string, ms: number, pause: () => Promise<void>) {
  cancelTyping(sessionId, chatId);
  const key = keyOf(sessionId, chatId);
  const timer = setTimeout(() => {
    timers.delete(key);
    pause().catch(() => undefined); // the indicator fades on the phone anyway; nothing to retry
  }, ms);
  timer.unref?.();
  timers.set(key, timer);
}

/** A message goes to the chat: its typing indicator ends with it. */
export function cancelTyping(sessionId: string, chatId: string) {
  const key = keyOf(sessionId, chatId);
  clearTimeout(timers.get(key));
  timers.delete(key);
}
