import { expect } from 'vitest';
import type { api } from './client.ts';
import { openStream } from './sse-client.ts';
import { startReceiver } from './webhook-receiver.ts';

/**
 * What the e2e tests listen to a tenant with: its webhook pointed at a receiver of the test's, and
 * its open stream. One owner for the set-up the e2e files each wrote again.
 */

type Client = ReturnType<typeof api>;
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
/** What a test closes after itself (its `afterEach` runs them). */
export type Closers = Array<() => unknown>;

/** Points the tenant's webhook at `hook` (loopback approved, enabled), with `extra` settings. */
export async function webhookTo(
  client: Client,
  hook: { url: string },
  extra: Record<string, unknown> = {},
): Promise<void> {
  const cfg = await client.post('/api/webhook/config', {
    webhookUrl: hook.url,
    approvedDomains: '127.0.0.1',
    enabled: true,
    ...extra,
  });
  expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
}

/** Starts a webhook receiver (closed by `closers`) and points the tenant's webhook at it. */
export async function hookedReceiver(
  client: Client,
  closers: Closers,
  extra: Record<string, unknown> = {},
): Promise<Receiver> {
  const recv = await startReceiver();
  closers.push(recv.close);
  await webhookTo(client, recv, extra);
  return recv;
}

/** Opens the tenant's stream (closed by `closers`) and waits for its `: connected`. */
export async function connectedStream(portalId: string, closers: Closers) {
  const stream = await openStream(portalId);
  closers.push(() => stream.close());
  await stream.connected;
  return stream;
}

/** A webhook receiver and an open stream for the tenant: what its webhooks and its stream carry. */
export async function listenTo(
  t: { api: Client; portalId: string },
  closers: Closers,
  webhook: Record<string, unknown> = {},
) {
  const recv = await hookedReceiver(t.api, closers, webhook);
  const stream = await connectedStream(t.portalId, closers);
  return { recv, stream };
}
