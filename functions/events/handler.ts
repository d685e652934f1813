import { HostEvent } from '#shared/events/types';
import { sqsHandler } from '#shared/queue/consumer';
import { applyHostEvent } from './apply.ts';

/** SQS (events queue) → store, then webhooks and streams. */
export const handler = sqsHandler(HostEvent, (event) => applyHostEvent(event));
