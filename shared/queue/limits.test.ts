import { describe, expect, it } from 'vitest';
import { envDefaults } from '../config/env.ts';
import { MAX_DELAY_MS } from '../webhooks/backoff.ts';
import { SQS_BATCH_MAX, SQS_MAX_DELAY_SECONDS, SQS_MESSAGE_MAX_BYTES } from './limits.ts';
import { BATCH_MAX_BYTES, BATCH_MAX_ENTRIES } from './send.ts';

describe('requests within SQS limits', () => {
  it('sends batches SQS takes', () => {
    expect(BATCH_MAX_ENTRIES).toBe(SQS_BATCH_MAX);
    expect(BATCH_MAX_BYTES).toBeLessThan(SQS_MESSAGE_MAX_BYTES);
  });

  it('never asks for a delay SQS refuses (webhook retries and the sweep)', () => {
    expect(MAX_DELAY_MS).toBe(SQS_MAX_DELAY_SECONDS * 1000);
    expect(envDefaults().WEBHOOK_RETRY_MAX_DELAY_MS).toBeLessThanOrEqual(MAX_DELAY_MS);
  });
});
