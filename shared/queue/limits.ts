/**
 * SQS's own limits, as AWS documents them, in one place: every request the code builds stays within
 * them (a batch of eleven, a delay of sixteen minutes or a wait of 21 s is refused outright).
 */

/** Entries per SendMessageBatch, DeleteMessageBatch and ChangeMessageVisibilityBatch; messages per receive. */
export const SQS_BATCH_MAX = 10;
/** One message's body, and one SendMessageBatch request's bodies together. */
export const SQS_MESSAGE_MAX_BYTES = 256 * 1024;
/** The longest `DelaySeconds` a message may be sent with (15 minutes). */
export const SQS_MAX_DELAY_SECONDS = 900;
/** The longest a receive may wait for a message (long polling). */
export const SQS_MAX_WAIT_SECONDS = 20;
