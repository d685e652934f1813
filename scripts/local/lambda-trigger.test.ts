import type { Message } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { must } from '#shared/must';
import { lambdaTrigger } from './lambda-trigger.ts';

describe('lambdaTrigger', () => {
  it('hands the messages over as the trigger’s records and answers the failed ones as messages', async () => {
    const seen: SQSEvent[] = [];
    const handle = lambdaTrigger('events-queue', async (event) => {
      seen.push(event);
      return { batchItemFailures: [{ itemIdentifier: 'b' }] };
    });
    const messages: Message[] = [
      { MessageId: 'a', Body: '{"n":1}', ReceiptHandle: 'ra', Attributes: { ApproximateReceiveCount: '2' } },
      { MessageId: 'b', Body: '{"n":2}', ReceiptHandle: 'rb' },
    ];
    const failed = await handle(messages);
    expect(failed).toEqual([messages[1]]);
    const [a, b] = must(seen[0], 'the Lambda event').Records;
    expect(a).toMatchObject({
      messageId: 'a',
      body: '{"n":1}',
      receiptHandle: 'ra',
      attributes: { ApproximateReceiveCount: '2' },
      eventSourceARN: 'events-queue',
    });
    expect(b).toMatchObject({ messageId: 'b', attributes: {} });
  });
});
