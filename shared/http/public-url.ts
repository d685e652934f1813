import type { Context } from 'hono';
import { env } from '../config/env.ts';

/**
 * The service's public address for a URL it hands out: PUBLIC_BASE_URL (the stack's one public
 * name), else the address this request came to (local mode). In the cloud the request's own URL is
 * API Gateway's `execute-api` name, as CloudFront does not pass the viewer's Host on
 * (docs/deploy.md, "Public address and routing").
 */
// biome-ignore lint/suspicious/noExplicitAny: any route's context
export function publicBaseUrl(c: Context<any>): string {
  return (env().PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/+$/, '');
}
