import { z } from 'zod';

const DefaultQuota = z.coerce.number().int().min(0).max(100_000_000).default(1000);

let cached: number | undefined;

/** Messages per session per month unless the session has its own limit (`DEFAULT_MESSAGE_QUOTA`). */
export function defaultMessageQuota(): number {
  cached ??= DefaultQuota.parse(process.env.DEFAULT_MESSAGE_QUOTA || undefined);
  return cached;
}
