/**
 * The one definition of every table, bucket and queue. The local bootstrap and the CDK stack both
 * build from it, so local and cloud cannot drift.
 */

import { expiringPrefixes } from '../store/object-keys.ts';

export interface KeyDef {
  name: string;
  type: 'S' | 'N';
}

export interface IndexDef {
  indexName: string;
  partitionKey: KeyDef;
  sortKey: KeyDef;
}

export interface TableDef {
  id: string;
  partitionKey: KeyDef;
  sortKey: KeyDef;
  indexes: IndexDef[];
  ttlAttribute?: string;
  /** Holds the linked accounts' keys: in the cloud, encrypted with a customer-managed KMS key of its own. */
  ownKey?: boolean;
}

export interface QueueDef {
  id: string;
  fifo: boolean;
  /** How long one batch may take its consumer (the Lambda function's timeout in the cloud). */
  consumerTimeoutSeconds: number;
  /** At least 6× the consumer's time (AWS's advice for Lambda event sources: retries inside one batch). */
  visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the dead-letter queue. */
  maxReceiveCount: number;
}

export interface ExpiringPrefix {
  prefix: string;
  /** Objects under `prefix` are deleted this many days after they were written. */
  days: number;
}

export interface BucketDef {
  id: string;
  /** Short-lived objects: each is read only through a link or a job that ends before its expiry. */
  expiring: ExpiringPrefix[];
}

const S = (name: string): KeyDef => ({ name, type: 'S' });

export const tables = {
  data: {
    id: 'data',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [
      { indexName: 'gsi1', partitionKey: S('gsi1pk'), sortKey: S('gsi1sk') },
      { indexName: 'gsi2', partitionKey: S('gsi2pk'), sortKey: S('gsi2sk') },
    ],
    ttlAttribute: 'expiresAt',
  },
  auth: {
    id: 'auth',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [],
    ownKey: true,
  },
} satisfies Record<string, TableDef>;

export const buckets = {
  media: {
    id: 'media',
    // Each prefix and its days are defined beside the keys written under it.
    expiring: expiringPrefixes(),
  },
} satisfies Record<string, BucketDef>;

/**
 * Commands for sessions go to one of SHARD_COUNT FIFO queues (by the session's hash); the hosts
 * holding its lease shards consume it. A host puts back a command of a shard it does not hold, which
 * counts as a receive (connection-host/command-queues.ts): a command reaches its holder in about as
 * many receives as hosts share its queue, so 200 receives (about an hour of put-backs for a shard
 * with no live holder; 33 minutes of a holder failing it) before the DLQ.
 */
export function commandQueue(shard: number): QueueDef {
  return {
    id: `commands-${shard}`,
    fifo: true,
    consumerTimeoutSeconds: 10,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 200,
  };
}

export const queues = {
  events: {
    id: 'events',
    fifo: false,
    consumerTimeoutSeconds: 10,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
  },
  /** A session's deliveries in one batch go out in order: up to 10 POSTs of at most 10 s each. */
  webhooks: {
    id: 'webhooks',
    fifo: false,
    consumerTimeoutSeconds: 120,
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: 3,
  },
  /** Inbound messages the chatbot may answer; standard (per-message DelaySeconds debounces bursts). */
  chatbot: {
    id: 'chatbot',
    fifo: false,
    consumerTimeoutSeconds: 90,
    visibilityTimeoutSeconds: 540,
    maxReceiveCount: 3,
  },
  /**
   * Inbound media to analyse (docs/media.md, "Pipeline"): one job per message, 120 s for a 60 s
   * analysis bound and the publication after it; the last receive publishes without analysis, so a
   * message never ends in the DLQ unpublished.
   */
  media: {
    id: 'media',
    fifo: false,
    consumerTimeoutSeconds: 120,
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: 3,
  },
} satisfies Record<string, QueueDef>;

export function allQueues(shardCount: number): QueueDef[] {
  return [...Object.values(queues), ...Array.from({ length: shardCount }, (_, i) => commandQueue(i))];
}

/** Physical names: `<prefix>-<id>` (FIFO queues end in `.fifo`, dead-letter queues in `-dlq`). */
export function tableName(prefix: string, def: TableDef): string {
  return `${prefix}-${def.id}`;
}

export function bucketName(prefix: string, def: BucketDef): string {
  return `${prefix}-${def.id}`;
}

export function queueName(prefix: string, def: QueueDef): string {
  return `${prefix}-${def.id}${def.fifo ? '.fifo' : ''}`;
}

export function deadLetterQueueName(prefix: string, def: QueueDef): string {
  return `${prefix}-${def.id}-dlq${def.fifo ? '.fifo' : ''}`;
}

/**
 * The Secrets Manager secret holding one tenant's credentials of one kind (e.g. `export-settings`):
 * `<prefix>/tenants/<tenantId>/<purpose>`. The stack grants the API rights on `<prefix>/tenants/*`.
 */
export function tenantSecretName(prefix: string, tenantId: string, purpose: string): string {
  return `${prefix}/tenants/${tenantId}/${purpose}`;
}
