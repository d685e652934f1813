/** Payloads we send out (webhooks, the SSE feed) give times as whole Unix seconds, as WhatsApp does. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000);
