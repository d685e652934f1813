import { describe, expect, it } from 'vitest';
import { baseUrl, messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';

/** `GET /metrics` → { metric name with labels → value }. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${baseUrl()}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const values = new Map<string, number>();
  for (const line of (await res.text()).trimEnd().split('\n')) {
    if (line.startsWith('#')) {
      expect(line).toMatch(/^# (HELP|TYPE) wsm_[a-z_]+ .+/);
      continue;
    }
    const m = line.match(/^(wsm_[a-z_]+(?:\{queue="[^"]+"\})?) (\d+(?:\.\d+)?)$/);
    expect(m, line).not.toBeNull();
    const [, name, value] = must(m, line);
    values.set(must(name, line), Number(value));
  }
  return values;
}

const grew = (before: Map<string, number>, after: Map<string, number>, name: string) =>
  (after.get(name) ?? 0) - (before.get(name) ?? 0);

describe('GET /metrics (local mode: the counters CloudWatch gets in the cloud)', () => {
  it('counts accepted, sent and received messages, webhook attempts and queue ages', async () => {
    const before = await scrape();
    const t = await newTenant();
    const s = await readySession(t.api);
    const sent = await t.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: '919800000123',
      message: 'hi',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const inbound = await simInbound({ sessionId: s.sessionId, from: '919800000124', text: 'hello' });
    await messageStored(t.api, inbound);

    const after = await waitFor(
      async () => {
        const now = await scrape();
        const counted =
          grew(before, now, 'wsm_messages_sent_total') >= 1 &&
          grew(before, now, 'wsm_messages_received_total') >= 1;
        return counted ? now : undefined;
      },
      15_000,
      'the send counted as sent and the inbound message as received',
    );
    expect(grew(before, after, 'wsm_messages_accepted_total')).toBeGreaterThanOrEqual(1);
    expect(grew(before, after, 'wsm_messages_received_total')).toBeGreaterThanOrEqual(1);
    const eventsAges = [...after.keys()].find((k) =>
      /^wsm_queue_age_ms_count\{queue="[^"]*-events"\}$/.test(k),
    );
    expect(eventsAges).toBeDefined();
    expect(grew(before, after, must(eventsAges, 'eventsAges'))).toBeGreaterThanOrEqual(2);
    const commandAges = [...after.keys()].filter((k) =>
      /^wsm_queue_age_ms_count\{queue="[^"]*-commands-\d+\.fifo"\}$/.test(k),
    );
    expect(commandAges.length).toBeGreaterThan(0);
    for (const name of [
      'wsm_webhook_attempts_total',
      'wsm_webhook_delivered_total',
      'wsm_messages_failed_total',
    ])
      expect(after.has(name), name).toBe(true);
  }, 60_000);
});
