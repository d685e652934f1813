import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalS3Sqs, startS3Sqs } from '../../scripts/local/s3-sqs.ts';
import { must } from '../support/must.ts';

/**
 * `npm start`'s S3 and SQS (fauxqs) with a data directory: what it acknowledged is there after a
 * restart. Each "crash" here leaves the first server running and never stopped (nothing is flushed
 * or closed on the way out); tests/e2e/local-crash.test.ts kills a whole service with SIGKILL.
 */
const dirs: string[] = [];
const running: LocalS3Sqs[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop().catch(() => {})));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const credentials = { accessKeyId: 'l', secretAccessKey: 'l' };

async function start(dir: string) {
  const server = await startS3Sqs(dir);
  running.push(server);
  const sqs = new SQSClient({ endpoint: server.address, region: 'us-east-1', credentials });
  const s3 = new S3Client({
    endpoint: server.address,
    region: 'us-east-1',
    credentials,
    forcePathStyle: true,
  });
  return { server, sqs, s3 };
}

/** The queues as the bootstrap makes them: a dead-letter queue, and a queue that moves there after 2 receives. */
async function queues(sqs: SQSClient, fifo = false) {
  const suffix = fifo ? '.fifo' : '';
  const attrs = fifo ? { FifoQueue: 'true', ContentBasedDeduplication: 'false' } : {};
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `jobs-dlq${suffix}`, Attributes: attrs }));
  const arn = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const q = await sqs.send(
    new CreateQueueCommand({
      QueueName: `jobs${suffix}`,
      Attributes: {
        ...attrs,
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: must(arn.Attributes, 'arn.Attributes').QueueArn,
          maxReceiveCount: 2,
        }),
      },
    }),
  );
  return { url: must(q.QueueUrl, 'q.QueueUrl'), dlq: must(dlq.QueueUrl, 'dlq.QueueUrl') };
}

async function drain(sqs: SQSClient, url: string, waitSeconds = 0): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const r = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds }),
    );
    const got = r.Messages ?? [];
    if (!got.length) return bodies.sort();
    bodies.push(...got.map((m) => must(m.Body, 'm.Body')));
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: got.map((m, i) => ({
          Id: String(i),
          ReceiptHandle: must(m.ReceiptHandle, 'm.ReceiptHandle'),
        })),
      }),
    );
  }
}

const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'wsm-faux-'));
  dirs.push(d);
  return d;
};

describe("npm start's queues and objects on disk", () => {
  it('keeps every message sent and not deleted, a delayed one still delayed', async () => {
    const dir = newDir();
    const a = await start(dir);
    const { url } = await queues(a.sqs);
    const bodies = Array.from({ length: 30 }, (_, n) => `m${String(n).padStart(2, '0')}`);
    for (let n = 0; n < 30; n += 10) {
      await a.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: bodies.slice(n, n + 10).map((b, i) => ({ Id: String(i), MessageBody: b })),
        }),
      );
    }
    // Ten of them consumed for good before the crash.
    let deleted: string[] = [];
    while (deleted.length < 10) {
      const r = await a.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 - deleted.length }),
      );
      const got = r.Messages ?? [];
      await a.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: got.map((m, i) => ({
            Id: String(i),
            ReceiptHandle: must(m.ReceiptHandle, 'm.ReceiptHandle'),
          })),
        }),
      );
      deleted = [...deleted, ...got.map((m) => must(m.Body, 'm.Body'))];
    }
    // A retry due in 2 s.
    await a.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'later', DelaySeconds: 2 }));
    const sentAt = Date.now();

    // The crash: a new server on the same directory, the first never stopped.
    const b = await start(dir);
    const again = await queues(b.sqs);
    const left = await drain(b.sqs, again.url);
    expect(left).toEqual(bodies.filter((x) => !deleted.includes(x)).sort());
    // The delayed one comes when it is due, not before.
    expect(left).not.toContain('later');
    expect(await drain(b.sqs, again.url, 3)).toEqual(['later']);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1_900);
    expect(await drain(b.sqs, again.dlq)).toEqual([]);
  }, 30_000);

  it('keeps a message moved to the dead-letter queue there, and FIFO groups in order', async () => {
    const dir = newDir();
    const a = await start(dir);
    const { url } = await queues(a.sqs, true);
    for (const n of [1, 2, 3]) {
      await a.sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: `g${n}`,
          MessageGroupId: 'g',
          MessageDeduplicationId: `d${n}`,
        }),
      );
    }
    // Received twice without a delete (visibility 1 s), then moved on the third receive.
    for (let i = 0; i < 3; i++) {
      await a.sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
      await new Promise((r) => setTimeout(r, 1_100));
    }

    const b = await start(dir);
    const again = await queues(b.sqs, true);
    expect(await drain(b.sqs, again.dlq)).toEqual(['g1']);
    const order: string[] = [];
    for (;;) {
      const r = await b.sqs.send(new ReceiveMessageCommand({ QueueUrl: again.url, MaxNumberOfMessages: 10 }));
      const m = r.Messages?.[0];
      if (!m) break;
      order.push(must(m.Body, 'm.Body'));
      await b.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: again.url,
          Entries: [{ Id: '0', ReceiptHandle: must(m.ReceiptHandle, 'm.ReceiptHandle') }],
        }),
      );
    }
    expect(order).toEqual(['g2', 'g3']);
  }, 30_000);

  it('keeps S3 objects written and forgets deleted ones', async () => {
    const dir = newDir();
    const a = await start(dir);
    await a.s3.send(new CreateBucketCommand({ Bucket: 'media' }));
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await a.s3.send(
      new PutObjectCommand({ Bucket: 'media', Key: 'media/t/s/m1', Body: bytes, ContentType: 'image/png' }),
    );
    await a.s3.send(new PutObjectCommand({ Bucket: 'media', Key: 'media/t/s/m2', Body: 'gone' }));
    await a.s3.send(new DeleteObjectCommand({ Bucket: 'media', Key: 'media/t/s/m2' }));

    const b = await start(dir);
    await b.s3.send(new CreateBucketCommand({ Bucket: 'media' }));
    const got = await b.s3.send(new GetObjectCommand({ Bucket: 'media', Key: 'media/t/s/m1' }));
    expect(got.ContentType).toBe('image/png');
    expect(Buffer.from(await must(got.Body, 'got.Body').transformToByteArray()).equals(bytes)).toBe(true);
    await expect(b.s3.send(new GetObjectCommand({ Bucket: 'media', Key: 'media/t/s/m2' }))).rejects.toThrow();
  }, 30_000);
});
