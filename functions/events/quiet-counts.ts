import { recordChatActivity } from '#shared/contacts/repository';
import { logger } from '#shared/log/logger';
import { countDaily } from '#shared/usage/daily';
import { chatActivityNotWritten, chatActivityWaiting, quietChatActivity } from './chat-activity.ts';
import { CONTACT_ACTIVITY_STEP_MS } from './contact-activity.ts';
import { quietReceived, receivedNotWritten, receivedWaiting } from './daily-received.ts';

/*
 * Counts noted and not written yet (a chat's `inboundCount`: chat-activity.ts; a day's `received`:
 * daily-received.ts) ride on the write of the chat's or session's next message a minute on. A chat
 * or session that goes quiet instead gets them written a minute after they were noted: by the next
 * inbound run of any session (`storeRun`), or by a timer in a process that stays up (local mode; a
 * Lambda container's timer runs when it is next thawed). Without this a quiet chat's count stayed
 * short for good.
 */

let timer: NodeJS.Timeout | undefined;

/** Writes the counts that waited a minute for a next message; a failed write keeps its count for the next try. */
export async function writeQuietCounts(now = Date.now()): Promise<void> {
  await Promise.all([
    ...quietChatActivity(now).map(({ tenantId, sessionId, activity: c }) =>
      recordChatActivity(tenantId, sessionId, c.chatId, c.at, c.name, c.count).catch((err: unknown) => {
        chatActivityNotWritten(tenantId, sessionId, c);
        logger.warn({ err, tenantId, sessionId }, "a quiet chat's count not written; kept for the next try");
      }),
    ),
    ...quietReceived(now).map(({ tenantId, sessionId, received: d }) =>
      countDaily(tenantId, sessionId, { received: d.count }, d.at).catch((err: unknown) => {
        receivedNotWritten(tenantId, sessionId, d);
        logger.warn({ err, tenantId, sessionId }, "a quiet session's received count not written; kept");
      }),
    ),
  ]);
}

/** Makes sure waiting counts get written a minute on; the timer never keeps the process up. */
export function scheduleQuietCounts(): void {
  if (timer || !(chatActivityWaiting() || receivedWaiting())) return;
  timer = setTimeout(() => {
    timer = undefined;
    void writeQuietCounts().finally(scheduleQuietCounts);
  }, CONTACT_ACTIVITY_STEP_MS + 1_000);
  timer.unref();
}
