import { createHmac } from 'node:crypto';

/**
 * JSON with every non-ASCII character written as `\uXXXX`, as Meta sends it. Receivers built for
 * the Cloud API (whatsapp-api-js among them) escape the raw body this way before checking the
 * signature, so a body with raw UTF-8 in it would fail their check.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\0-~]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `X-Hub-Signature-256`: `sha256=<hex HMAC-SHA256 of the raw body, keyed by the app secret>`. */
export function hubSignature(appSecret: string, body: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** The headers of one Cloud-format delivery attempt; our delivery id and attempt help receivers dedupe. */
export function cloudDeliveryHeaders(opt: {
  deliveryId: string;
  attempt: number;
  body: string;
  appSecret?: string;
}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'session-manager-webhooks/1',
    'x-service-delivery-id': opt.deliveryId,
    'x-service-attempt': String(opt.attempt),
  };
  if (opt.appSecret) headers['x-hub-signature-256'] = hubSignature(opt.appSecret, opt.body);
  return headers;
}
