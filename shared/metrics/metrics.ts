/**
 * The service's counters (docs/observability.md), kept per process. In the cloud (`METRICS_FORMAT=emf`,
 * set by the stack) each function flushes them after every invocation, and the connection host every
 * minute, as one CloudWatch embedded-metric-format log line: CloudWatch turns it into metrics in the
 * `<prefix>` namespace, dimension `Service`. Locally the same counters, cumulative, are served at
 * `GET /metrics` in Prometheus text format.
 */

export const COUNTERS = {
  messagesAccepted: { name: 'MessagesAccepted', help: 'Sends accepted by the API (queued for a session)' },
  messagesSent: { name: 'MessagesSent', help: 'Outbound messages the network took (status sent)' },
  messagesDelivered: { name: 'MessagesDelivered', help: 'Outbound messages delivered to the recipient' },
  messagesRead: { name: 'MessagesRead', help: 'Outbound messages read by the recipient' },
  messagesFailed: { name: 'MessagesFailed', help: 'Outbound messages that failed' },
  messagesReceived: { name: 'MessagesReceived', help: 'Inbound messages stored' },
  webhookAttempts: { name: 'WebhookAttempts', help: 'Webhook POSTs made' },
  webhookDelivered: { name: 'WebhookDelivered', help: 'Webhook POSTs answered 2xx' },
  webhookFailures: { name: 'WebhookFailures', help: 'Webhook POSTs that failed (to be retried or given up)' },
  hostFullBeats: {
    name: 'HostFullBeats',
    help: 'Heartbeats of a connection host past its memory budget (it takes no more shards)',
  },
} as const;
export type Counter = keyof typeof COUNTERS;

interface Ages {
  count: number;
  sumMs: number;
  maxMs: number;
}

const counts = new Map<Counter, number>();
/** Queue name → age of the messages taken from it (time from sending to the start of handling). */
const ages = new Map<string, Ages>();

export function count(counter: Counter, n = 1): void {
  if (n > 0) counts.set(counter, (counts.get(counter) ?? 0) + n);
}

/** A message taken from `queue` `ageMs` after it was sent. */
export function observeQueueAge(queue: string, ageMs: number): void {
  if (!Number.isFinite(ageMs)) return;
  const ms = Math.max(0, ageMs);
  const a = ages.get(queue) ?? { count: 0, sumMs: 0, maxMs: 0 };
  a.count++;
  a.sumMs += ms;
  a.maxMs = Math.max(a.maxMs, ms);
  ages.set(queue, a);
}

/** Everything counted since the last flush (or start), for tests and the two outputs. */
export function snapshot(): { counts: Partial<Record<Counter, number>>; ages: Record<string, Ages> } {
  return {
    counts: Object.fromEntries(counts),
    ages: Object.fromEntries([...ages].map(([q, a]) => [q, { ...a }])),
  };
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c, i: number) => `${i ? '_' : ''}${c.toLowerCase()}`);
const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** Prometheus text exposition (version 0.0.4): one counter per COUNTERS entry, queue ages per queue. */
export function prometheusText(): string {
  const lines: string[] = [];
  for (const [key, def] of Object.entries(COUNTERS) as Array<[Counter, (typeof COUNTERS)[Counter]]>) {
    const name = `wsm_${snake(def.name)}_total`;
    lines.push(`# HELP ${name} ${def.help}`, `# TYPE ${name} counter`, `${name} ${counts.get(key) ?? 0}`);
  }
  lines.push(
    '# HELP wsm_queue_age_ms Time from a message being queued to its handling starting',
    '# TYPE wsm_queue_age_ms summary',
  );
  for (const [queue, a] of ages) {
    lines.push(`wsm_queue_age_ms_sum{queue="${label(queue)}"} ${a.sumMs}`);
    lines.push(`wsm_queue_age_ms_count{queue="${label(queue)}"} ${a.count}`);
  }
  lines.push(
    '# HELP wsm_queue_age_max_ms Oldest message handled, per queue',
    '# TYPE wsm_queue_age_max_ms gauge',
  );
  for (const [queue, a] of ages) lines.push(`wsm_queue_age_max_ms{queue="${label(queue)}"} ${a.maxMs}`);
  return `${lines.join('\n')}\n`;
}

/**
 * CloudWatch embedded metric format documents for what was counted since the last flush (none when
 * nothing was), then starts counting afresh. One document for the counters (dimension Service), one
 * per queue for its ages (dimensions Service and Queue).
 */
export function takeEmf(namespace: string, service: string, now = Date.now()): string[] {
  /** One EMF document: the metrics' definitions under `_aws`, their values and dimensions beside it. */
  const doc = (
    dimensions: Record<string, string>,
    units: Record<string, string>,
    values: Record<string, number>,
  ) =>
    JSON.stringify({
      _aws: {
        Timestamp: now,
        CloudWatchMetrics: [
          {
            Namespace: namespace,
            Dimensions: [Object.keys(dimensions)],
            Metrics: Object.entries(units).map(([Name, Unit]) => ({ Name, Unit })),
          },
        ],
      },
      ...dimensions,
      ...values,
    });
  const docs: string[] = [];
  const counted = [...counts].filter(([, n]) => n > 0);
  if (counted.length > 0) {
    docs.push(
      doc(
        { Service: service },
        Object.fromEntries(counted.map(([k]) => [COUNTERS[k].name, 'Count'])),
        Object.fromEntries(counted.map(([k, n]) => [COUNTERS[k].name, n])),
      ),
    );
  }
  for (const [queue, a] of ages) {
    docs.push(
      doc(
        { Service: service, Queue: queue },
        { QueueAgeMax: 'Milliseconds', QueueAgeAverage: 'Milliseconds' },
        { QueueAgeMax: a.maxMs, QueueAgeAverage: Math.round(a.sumMs / a.count) },
      ),
    );
  }
  counts.clear();
  ages.clear();
  return docs;
}
