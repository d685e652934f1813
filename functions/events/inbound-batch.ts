import { recordChatActivity, saveContacts } from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { saveMessage } from '#shared/messages/repository';
import { nudgeTenantFeed } from '#shared/stream/feed';
import { afterInboundStored, applyHostEvent, storedInbound } from './apply.ts';
import { inboundMessageWebhooks } from './webhooks/events.ts';

type Inbound = Extract<HostEvent, { kind: 'message.inbound' }>;

/**
 * Applies the events of ONE session in their order (the consumer groups a batch by session). A run
 * of consecutive inbound messages is applied together: the messages written one after another (so
 * they become visible to the stream in order) while their senders' contacts are written, each chat's activity in one write for the run, and the webhooks queued in
 * the messages' order with one SendMessageBatch per ten, so a burst costs a few round trips per
 * run instead of a few per message. Every other event applies on its own, between the runs, as
 * `applyHostEvent` does it. Answers, per event, whether it was applied.
 */
export async function applySessionEvents(events: HostEvent[]): Promise<boolean[]> {
  const ok: boolean[] = new Array(events.length).fill(false);
  let i = 0;
  while (i < events.length) {
    const e = events[i]!;
    if (e.kind !== 'message.inbound') {
      try {
        await applyHostEvent(e);
        ok[i] = true;
      } catch (err) {
        // Reported failed: SQS delivers it again. The events after it still apply (as before).
        logger.error({ err, kind: e.kind, sessionId: e.sessionId }, 'event failed; SQS will retry it');
      }
      i++;
      continue;
    }
    let j = i;
    while (j < events.length && events[j]!.kind === 'message.inbound') j++;
    const run = events.slice(i, j) as Inbound[];
    try {
      await applyInboundRun(run);
      ok.fill(true, i, j);
    } catch (err) {
      logger.error(
        { err, sessionId: e.sessionId, messages: run.length },
        'inbound run failed; SQS will retry it',
      );
      // The whole run again: every step is idempotent (conditional message write, delivery ids
      // derived from message ids, chat counts only for messages this run stored).
    }
    i = j;
  }
  return ok;
}

async function applyInboundRun(run: Inbound[]): Promise<void> {
  if (run.length === 1) return applyHostEvent(run[0]!);
  const { tenantId, sessionId } = run[0]!;
  // The newest name and time per sender: one contact write each.
  const senders = new Map<string, { name?: string; at: number }>();
  for (const e of run) {
    const m = e.message;
    if (!m.senderPhone) continue;
    const prev = senders.get(m.senderPhone);
    senders.set(m.senderPhone, {
      name: m.senderName ?? prev?.name,
      at: Math.max(prev?.at ?? 0, m.timestampMs),
    });
  }
  const [isNew] = await Promise.all([
    // One after another: the stream reads the store in order-key order and emits what it finds, so
    // a message must never become visible before the ones sent ahead of it.
    (async () => {
      const stored: boolean[] = [];
      for (const e of run) stored.push(await saveMessage(storedInbound(e)));
      return stored;
    })(),
    Promise.all(
      [...senders].map(([phone, s]) => saveContacts(tenantId, sessionId, [{ phone, name: s.name }], s.at)),
    ),
  ]);
  if (isNew.some(Boolean)) nudgeTenantFeed(tenantId);

  // Chat activity of the messages this run stored: one write per chat.
  const chats = new Map<string, { at: number; name?: string; count: number }>();
  run.forEach((e, n) => {
    if (!isNew[n]) return;
    const m = e.message;
    const prev = chats.get(m.chatId);
    chats.set(m.chatId, {
      at: Math.max(prev?.at ?? 0, m.timestampMs),
      name: (m.groupId ? undefined : m.senderName) ?? prev?.name,
      count: (prev?.count ?? 0) + 1,
    });
  });
  await Promise.all([
    ...[...chats].map(([chatId, c]) =>
      recordChatActivity(tenantId, sessionId, chatId, c.at, c.name, c.count),
    ),
    // As on the single-event path: queued for every message, a repeat finds its delivery.
    inboundMessageWebhooks(
      tenantId,
      sessionId,
      run.map((e) => e.message),
    ),
    ...run.map((e) => afterInboundStored(tenantId, sessionId, e.message)),
  ]);
}
