import { randomBytes } from 'node:crypto';

/** Our ids look like the network's own (`3EB0` + 16 uppercase hex), so the network can carry them as-is. */
export function newMessageId(): string {
  return `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
}

const WAMID = 'wamid.';

/** The Cloud-API-compatible path shows our id with the `wamid.` prefix its clients expect. */
export function toWamid(messageId: string): string {
  return `${WAMID}${messageId}`;
}

/** Accepts a `wamid.`-prefixed id or a bare one and answers our id. */
export function fromWamid(id: string): string {
  return id.startsWith(WAMID) ? id.slice(WAMID.length) : id;
}
