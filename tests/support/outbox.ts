import { expect } from 'vitest';
import type { OutboxEntry } from '../../simulator/network/accounts.ts';
import { api, waitFor } from './client.ts';

export type { OutboxEntry };

/** What the session has sent into the simulated network, oldest first. */
export async function outbox(sessionId: string): Promise<OutboxEntry[]> {
  const r = await api().get(`/_sim/outbox?sessionId=${sessionId}`);
  return (r.body.messages ?? []) as OutboxEntry[];
}

/** Waits until the session's outbox holds at least `count` messages. */
export async function outboxWith(
  sessionId: string,
  count: number,
  timeoutMs = 30_000,
): Promise<OutboxEntry[]> {
  return waitFor(
    async () => {
      const messages = await outbox(sessionId);
      return messages.length >= count ? messages : undefined;
    },
    timeoutMs,
    `${count} messages in the outbox of ${sessionId}`,
  );
}

/** Sends each body through `POST /api/messages/send`, in order, each accepted (202); answers their ids. */
export async function sendEach(client: ReturnType<typeof api>, bodies: object[]): Promise<string[]> {
  const ids: string[] = [];
  for (const b of bodies) {
    const r = await client.post('/api/messages/send', b);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    ids.push(r.body.messageId);
  }
  return ids;
}
