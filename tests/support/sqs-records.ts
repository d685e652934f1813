import type { SQSRecord } from 'aws-lambda';

/**
 * Bodies as the SQS records a Lambda consumer's handler receives (first receive), so a test can run
 * that handler in its own process, as a Lambda would run it. Message ids are `<tag>-<n>`.
 */
export const sqsRecords = (bodies: unknown[], tag: string): SQSRecord[] =>
  bodies.map(
    (b, n) =>
      ({
        messageId: `${tag}-${n}`,
        receiptHandle: '',
        body: JSON.stringify(b),
        attributes: { ApproximateReceiveCount: '1' },
        eventSourceARN: 'events',
      }) as unknown as SQSRecord,
  );
