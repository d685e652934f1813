import { env } from '../config/env.ts';
import {
  bucketName,
  buckets,
  commandQueue,
  deadLetterQueueName,
  type QueueDef,
  queueName,
  queues,
  tableName,
  tables,
} from './resources.ts';

/** Physical resource names for this deployment (prefix from RESOURCE_PREFIX; the stack's generated table and bucket names win). */
export const names = {
  dataTable: () => env().DATA_TABLE_NAME ?? tableName(env().RESOURCE_PREFIX, tables.data),
  authTable: () => env().AUTH_TABLE_NAME ?? tableName(env().RESOURCE_PREFIX, tables.auth),
  mediaBucket: () => env().MEDIA_BUCKET_NAME ?? bucketName(env().RESOURCE_PREFIX, buckets.media),
  queue: (def: QueueDef) => queueName(env().RESOURCE_PREFIX, def),
  deadLetterQueue: (def: QueueDef) => deadLetterQueueName(env().RESOURCE_PREFIX, def),
  eventsQueue: () => queueName(env().RESOURCE_PREFIX, queues.events),
  webhooksQueue: () => queueName(env().RESOURCE_PREFIX, queues.webhooks),
  chatbotQueue: () => queueName(env().RESOURCE_PREFIX, queues.chatbot),
  mediaQueue: () => queueName(env().RESOURCE_PREFIX, queues.media),
  commandQueue: (shard: number) => queueName(env().RESOURCE_PREFIX, commandQueue(shard)),
};
