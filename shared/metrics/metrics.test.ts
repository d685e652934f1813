import { beforeEach, describe, expect, it } from 'vitest';
import { COUNTERS, count, observeQueueAge, prometheusText, snapshot, takeEmf } from './metrics.ts';

beforeEach(() => {
  takeEmf('reset', 'reset');
});

describe('service counters', () => {
  it('Prometheus text: every counter with HELP and TYPE, queue ages as a summary and a max gauge', () => {
    count('messagesSent', 2);
    count('messagesSent');
    observeQueueAge('wsm-events', 40);
    observeQueueAge('wsm-events', 10);
    observeQueueAge('wsm-commands-0.fifo', -5);
    const text = prometheusText();
    expect(text).toContain('# TYPE wsm_messages_sent_total counter\nwsm_messages_sent_total 3\n');
    expect(text).toContain('wsm_webhook_attempts_total 0\n');
    expect(text).toContain('wsm_queue_age_ms_sum{queue="wsm-events"} 50\n');
    expect(text).toContain('wsm_queue_age_ms_count{queue="wsm-events"} 2\n');
    expect(text).toContain('wsm_queue_age_max_ms{queue="wsm-events"} 40\n');
    // A clock step backwards is an age of 0, not a negative one.
    expect(text).toContain('wsm_queue_age_ms_sum{queue="wsm-commands-0.fifo"} 0\n');
    expect(text.match(/^# TYPE wsm_\w+_total counter$/gm)).toHaveLength(Object.keys(COUNTERS).length);
  });

  it('EMF: one document for the counters and one per queue, in the namespace given; then counting starts afresh', () => {
    count('webhookAttempts', 4);
    count('webhookFailures');
    observeQueueAge('p-webhooks', 120);
    const docs = takeEmf('p', 'webhooks', 1_700_000_000_000).map((d) => JSON.parse(d));
    expect(docs).toHaveLength(2);
    expect(docs[0]).toEqual({
      _aws: {
        Timestamp: 1_700_000_000_000,
        CloudWatchMetrics: [
          {
            Namespace: 'p',
            Dimensions: [['Service']],
            Metrics: [
              { Name: 'WebhookAttempts', Unit: 'Count' },
              { Name: 'WebhookFailures', Unit: 'Count' },
            ],
          },
        ],
      },
      Service: 'webhooks',
      WebhookAttempts: 4,
      WebhookFailures: 1,
    });
    expect(docs[1]).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Namespace: 'p', Dimensions: [['Service', 'Queue']] }] },
      Queue: 'p-webhooks',
      QueueAgeMax: 120,
      QueueAgeAverage: 120,
    });
    expect(snapshot()).toEqual({ counts: {}, ages: {} });
    expect(takeEmf('p', 'webhooks')).toEqual([]);
  });
});
