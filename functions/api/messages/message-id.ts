import { randomBytes } from 'node:crypto';

/** Our ids look like the network's own (`3EB0` + 16 uppercase hex), so the network can carry them as-is. */
export function newMessageId(): string {
  return `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
}
