import { type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';
import { queueUrl } from '../aws/queue-url.ts';
import { logger } from '../log/logger.ts';
import { Deleter } from './deleter.ts';
import { eachAlone, type LaneDispatch, Lanes, type LaneWork } from './lanes.ts';
import { SQS_BATCH_MAX } from './limits.ts';
import { changeVisibility, keepInvisible } from './visibility.ts';

/**
 * The long-polling consumer loop, for what no Lambda trigger feeds: the connection host's command
 * queues, and locally every queue (scripts/local/service.ts). Receive, hand on, delete what succeeded.
 */

export interface PollOptions {
  /**
   * How long one receive waits for a message (SQS long polling, up to 20). A receive returns as soon
   * as a message arrives, so a longer wait costs no latency, only fewer empty (billed) receives;
   * `stop()` does not wait for a waiting receive (below).
   */
  waitSeconds?: number;
  batchSize?: number;
  visibilityTimeout?: number;
  /**
   * Pipelined mode. The loop keeps receiving while earlier messages are being handled (up to
   * `maxInFlight` messages at once) and hands each message to the lane `keyOf(body)` names: a lane
   * runs its messages one at a time in the order they were received, different lanes run side by
   * side. Messages with no key get a lane each. Receives stay one at a time, so the lanes see the
   * queue's order.
   */
  lanes?: {
    keyOf: (body: string) => string | undefined;
    maxInFlight?: number;
    /**
     * How many of a lane's waiting messages go to the handler at once (default: `batchSize`). Larger
     * than a receive when the handler does per-batch work (one transaction for the lot), so a busy
     * lane catches up in fewer, larger steps.
     */
    handOver?: number;
    /** How the lanes' batches reach the handler (default: each on its own, `eachAlone`). */
    dispatch?: (work: LaneWork) => LaneDispatch;
  };
}

/**
 * Handles received messages (in the order received); answers those that failed, which are left to
 * the queue's redelivery (the others are deleted). A throw fails them all.
 */
export type MessageHandler = (messages: Message[]) => Promise<Message[]>;

const idsOf = (messages: Message[]) => new Set(messages.map((m) => m.MessageId));

export interface QueuePoller {
  /**
   * Resolves once what was received is handled (and deleted where it succeeded); nothing more is
   * handed to the handler. A receive still waiting on SQS is not waited for: whatever it gets
   * later goes back to the queue at once, for the next consumer.
   */
  stop(): Promise<void>;
  /** Resolves once that last receive has ended too (at most `waitSeconds` after `stop`). */
  drained(): Promise<void>;
}

/**
 * Receives, hands on, deletes what succeeded. Failed messages become visible again after the
 * visibility timeout, as with the Lambda trigger.
 */
export function pollQueue(queueName: string, handler: MessageHandler, opts: PollOptions = {}): QueuePoller {
  let running = true;
  let lanes: Lanes | undefined;
  let deleter: Deleter | undefined;
  // A receive is not cut short (aborted): SQS, or the local server, may still hand a message to the
  // closed request, hiding it for its visibility timeout. It ends by itself within its wait.
  let receiving = false;
  const loop = (async () => {
    const url = await queueUrl(queueName);
    const del = new Deleter(url);
    deleter = del;
    if (opts.lanes) {
      // A lane hands everything it has waiting (up to a batch) to the handler at once, in order.
      const handOver = opts.lanes.handOver ?? opts.batchSize ?? SQS_BATCH_MAX;
      const work: LaneWork = async (batch) => {
        const heartbeat = opts.visibilityTimeout
          ? keepInvisible(url, batch, opts.visibilityTimeout)
          : undefined;
        try {
          const failed = idsOf(await handler(batch));
          for (const m of batch) if (!failed.has(m.MessageId)) del.add(m);
          return batch.filter((m) => failed.has(m.MessageId));
        } catch (err) {
          logger.error({ err, queue: queueName }, 'handler failed');
          return batch;
        } finally {
          clearInterval(heartbeat);
        }
      };
      lanes = new Lanes(opts.lanes.maxInFlight ?? 300, handOver, (opts.lanes.dispatch ?? eachAlone)(work));
    }
    while (running) {
      try {
        if (lanes) {
          await lanes.room();
          await lanes.free();
        }
        if (!running) break;
        receiving = true;
        const r = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: opts.batchSize ?? SQS_BATCH_MAX,
            WaitTimeSeconds: opts.waitSeconds ?? 1,
            VisibilityTimeout: opts.visibilityTimeout,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'MessageGroupId', 'SentTimestamp'],
          }),
        );
        receiving = false;
        const messages = r.Messages ?? [];
        if (!running) {
          await returnToQueue(url, messages);
          break;
        }
        if (!messages.length) continue;
        if (lanes && opts.lanes) {
          for (const m of messages) {
            let key: string | undefined;
            try {
              key = opts.lanes.keyOf(m.Body ?? '');
            } catch {}
            lanes.add(key ?? `message:${m.MessageId}`, m);
          }
          continue;
        }
        const heartbeat = opts.visibilityTimeout
          ? keepInvisible(url, messages, opts.visibilityTimeout)
          : undefined;
        const failed = idsOf(await handler(messages).finally(() => clearInterval(heartbeat)));
        for (const m of messages) if (!failed.has(m.MessageId)) del.add(m);
        await del.flush();
      } catch (err) {
        receiving = false;
        if (!running) break;
        logger.error({ err, queue: queueName }, 'poll failed');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await lanes?.idle();
    await del.flush();
  })();
  return {
    async stop() {
      running = false;
      if (!receiving) return loop;
      // The loop waits on SQS: what it received before is in the lanes and the deleter.
      await lanes?.idle();
      await deleter?.flush();
    },
    drained: () => loop,
  };
}

/** Messages received after the consumer stopped: visible again at once, not after their timeout. */
async function returnToQueue(url: string, messages: Message[]): Promise<void> {
  await changeVisibility(
    url,
    messages.map((m) => ({ receiptHandle: m.ReceiptHandle, seconds: 0 })),
  ).catch((err) =>
    logger.warn({ err }, 'returning messages failed; they return after their visibility timeout'),
  );
}
