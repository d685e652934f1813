import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { sqsClient } from '#shared/aws/clients';
import { queueUrl } from '#shared/aws/queue-url';
import { pollQueue } from '#shared/queue/poller';
import { must } from '../support/must.ts';

/**
 * The hosts long-poll their command queues for 20 s (connection-host/command-queues.ts): one billed
 * receive every 20 s while idle instead of every second. Waiting that long must cost neither a
 * command's latency (a receive returns as soon as a message arrives) nor a hand-over's (stopping
 * does not wait for the waiting receive, and what that receive still gets goes back to the queue at
 * once instead of staying hidden for its visibility timeout, 30 s on this queue).
 */
const name = `long-poll-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  await sqsClient()
    .send(new DeleteQueueCommand({ QueueUrl: await queueUrl(name) }))
    .catch(() => {});
});

describe('pollQueue with a 20 s wait', () => {
  it('hands over a message as soon as it arrives, stops at once while waiting, and puts back what the last receive gets', async () => {
    await sqsClient().send(new CreateQueueCommand({ QueueName: name }));
    const url = await queueUrl(name);
    const received: Array<{ body: string; at: number }> = [];
    /** A consumer of the queue (waiting 20 s a receive) that records what it was handed, and when. */
    const recordingConsumer = () =>
      pollQueue(
        name,
        async (messages) => {
          for (const m of messages) received.push({ body: m.Body ?? '', at: Date.now() });
          return [];
        },
        { waitSeconds: 20 },
      );
    const consumer = recordingConsumer();
    // The first receive is waiting by now.
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    await sqsClient().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'hello' }));
    await expect.poll(() => received.length, { timeout: 5_000, interval: 50 }).toBe(1);
    const first = must(received[0], 'the first message handed over');
    expect(first.body).toBe('hello');
    expect(first.at - sentAt).toBeLessThan(3_000);

    // The next receive is waiting again; stop() does not wait out its 20 s.
    await new Promise((r) => setTimeout(r, 500));
    const stopAt = Date.now();
    await consumer.stop();
    expect(Date.now() - stopAt).toBeLessThan(3_000);

    // That receive, still waiting, takes nothing with it: the next consumer (the shard's next holder)
    // gets the next message at once, not after the queue's visibility timeout.
    const next = recordingConsumer();
    await new Promise((r) => setTimeout(r, 500));
    const again = Date.now();
    await sqsClient().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'after the hand-over' }));
    await expect.poll(() => received.length, { timeout: 8_000, interval: 50 }).toBe(2);
    const second = must(received[1], 'the message after the hand-over');
    expect(second.body).toBe('after the hand-over');
    expect(second.at - again).toBeLessThan(3_000);
    await next.stop();
    // Both last receives end within their wait (what the host waits for before it exits).
    const drainAt = Date.now();
    await Promise.all([consumer.drained(), next.drained()]);
    expect(Date.now() - drainAt).toBeLessThan(22_000);
    expect(received).toHaveLength(2);
  }, 60_000);
});
