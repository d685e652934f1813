import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `sha256=<hex>` over `${timestamp}.${body}`, keyed by the secret token. Binding the timestamp
 * lets receivers reject replays older than a few minutes.
 */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Constant-time check of a received signature header (what a receiver does; used by tests). */
export function verifySignature(secret: string, timestamp: string, body: string, header: string): boolean {
  const expected = Buffer.from(signature(secret, timestamp, body));
  const got = Buffer.from(header);
  return expected.length === got.length && timingSafeEqual(expected, got);
}

/** The headers of one delivery attempt. Without a secret there is nothing to sign with: no secret, no signature. */
export function deliveryHeaders(opt: {
  deliveryId: string;
  event: string;
  attempt: number;
  body: string;
  secret?: string;
  now?: number;
}): Record<string, string> {
  const timestamp = String(Math.floor((opt.now ?? Date.now()) / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'session-manager-webhooks/1',
    'x-service-event': opt.event,
    'x-service-delivery-id': opt.deliveryId,
    'x-service-attempt': String(opt.attempt),
    'x-service-timestamp': timestamp,
  };
  if (opt.secret) {
    headers['x-service-secret'] = opt.secret;
    headers['x-service-signature'] = signature(opt.secret, timestamp, opt.body);
  }
  return headers;
}
