import { describe, expect, it } from 'vitest';
import { PAYLOAD_IN_JOB_MAX, type WebhookJob } from '../webhooks/job.ts';
import { BATCH_MAX_BYTES, BATCH_MAX_ENTRIES, batchesOf, jsonSize } from './send.ts';

const job = (n: number, body: string): WebhookJob => ({
  tenantId: 't1',
  deliveryId: `dlv_${n}`,
  round: 0,
  attempt: 1,
  sessionId: 's1',
  event: 'message.inbound',
  body,
  createdAt: 1,
});

describe('batchesOf (webhook jobs)', () => {
  it('sends small jobs ten to a request, in their order', () => {
    const jobs = Array.from({ length: 23 }, (_, n) => job(n, '{"text":"hi"}'));
    const batches = batchesOf(jobs);
    expect(batches.map((b) => b.length)).toEqual([10, 10, 3]);
    expect(batches.flat()).toEqual(jobs);
  });

  it('keeps each request under the byte limit when payloads in non-Latin script grow once escaped', () => {
    // Malayalam text: one character each in the payload, six bytes each as sent (\uXXXX).
    const text = 'മലയാളം'.repeat(Math.floor(PAYLOAD_IN_JOB_MAX / 6 / 4));
    const jobs = Array.from({ length: 10 }, (_, n) => job(n, JSON.stringify({ text })));
    expect(jobs.every((j) => j.body !== undefined && j.body.length <= PAYLOAD_IN_JOB_MAX)).toBe(true);
    const batches = batchesOf(jobs);
    expect(batches.length).toBeGreaterThan(1);
    for (const b of batches) {
      expect(b.length).toBeLessThanOrEqual(BATCH_MAX_ENTRIES);
      expect(b.reduce((n, j) => n + jsonSize(j), 0)).toBeLessThanOrEqual(BATCH_MAX_BYTES);
    }
    expect(batches.flat()).toEqual(jobs);
  });
});
