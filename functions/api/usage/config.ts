import { env } from '#shared/config/env';

/** Messages per session per month unless the session has its own limit (`DEFAULT_MESSAGE_QUOTA`). */
export function defaultMessageQuota(): number {
  return env().DEFAULT_MESSAGE_QUOTA;
}
