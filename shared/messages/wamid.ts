const WAMID = 'wamid.';

/** Cloud API clients (the Cloud-compatible send path, Cloud-format webhooks) see our id as `wamid.<id>`. */
export function toWamid(messageId: string): string {
  return `${WAMID}${messageId}`;
}

/** Accepts a `wamid.`-prefixed id or a bare one and answers our id. */
export function fromWamid(id: string): string {
  return id.startsWith(WAMID) ? id.slice(WAMID.length) : id;
}
