import { afterAll, describe, expect, it } from 'vitest';
import { SLOW_STRIKES } from '#shared/webhooks/slow-tenants';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';
import { openStream } from '../support/sse-client.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * One tenant's slow webhook receiver must not slow another tenant (docs/events.md, "Fair sharing").
 * Tenant `noisy` answers every webhook after 6 s and gets five messages a second; tenant `quiet`,
 * with a fast receiver and an SSE client, gets two a second meanwhile. Before the fix each of the
 * events consumer's batches waited up to the first-attempt budget (2 s) for the noisy receiver,
 * and the quiet tenant's messages waited behind them (p50 above 1 s). The bound stated here: once
 * the noisy tenant's first slow answer has been seen, the quiet tenant's message → stream and
 * message → webhook latencies under the noise stay within 400 ms (p50) and 1.5 s (p90) of the same
 * latencies measured just before without it, so the machine's own load (other test files share the
 * service) does not decide the outcome.
 */
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

const SLOW_MS = 6_000;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return must(
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))],
    'a percentile (is the sample empty?)',
  );
};

async function tenantWithReceiver(name: string, delayMs: number) {
  const t = await newTenant(name);
  const s = await readySession(t.api);
  const recv = await startReceiver(() => 200, { delayMs });
  closers.push(recv.closeNow);
  const r = await t.api.post('/api/webhook/config', { webhookUrl: recv.url, approvedDomains: ['127.0.0.1'] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { t, s, recv };
}

const inbound = (sessionId: string, from: string, text: string) =>
  api().post('/_sim/inbound', { sessionId, from, text });

describe('a tenant with a slow webhook receiver', () => {
  it("does not raise another tenant's message → stream and message → webhook latency", async () => {
    const noisy = await tenantWithReceiver('noisy', SLOW_MS);
    const quiet = await tenantWithReceiver('quiet', 0);
    const stream = await openStream(quiet.t.portalId);
    closers.push(stream.close);
    expect(stream.status).toBe(200);
    await stream.connected;

    // The noisy tenant's first messages, each in a batch of its own: their attempts are still under
    // way when the events consumer's budget ends, which is how the service learns that this receiver
    // is slow (SLOW_STRIKES signs of it).
    for (let i = 0; i < SLOW_STRIKES; i++) {
      await inbound(noisy.s.sessionId, '15550008888', `noisy warm-up ${i}`);
      await waitFor(async () => noisy.recv.requests.length > i, 10_000, 'the slow POST to arrive');
    }
    await new Promise((r) => setTimeout(r, 2_500));

    const summary = (xs: number[]) => ({ p50: percentile(xs, 50), p90: percentile(xs, 90) });
    /** Quiet messages two a second; their message → stream and message → webhook latencies. */
    const quietRound = async (round: string, count: number) => {
      const sentAt = new Map<string, number>();
      for (let i = 0; i < count; i++) {
        const text = `quiet ${round} ${i}`;
        sentAt.set(text, Date.now());
        const r = await inbound(quiet.s.sessionId, '15550009999', text);
        expect(r.status).toBe(200);
        await new Promise((r) => setTimeout(r, 500));
      }
      await waitFor(
        async () =>
          stream.events.filter((e) => sentAt.has(e.json.message)).length === sentAt.size &&
          quiet.recv.of('message.inbound').filter((r) => sentAt.has(r.json.content.text)).length >=
            sentAt.size,
        15_000,
        "every quiet message on the stream and at the quiet tenant's receiver",
      );
      const toStream = stream.events
        .filter((e) => sentAt.has(e.json.message))
        .map((e) => e.receivedAt - must(sentAt.get(e.json.message), 'sentAt.get(e.json.message)'));
      const toWebhook = quiet.recv
        .of('message.inbound')
        .filter((r) => sentAt.has(r.json.content.text))
        .map((r) => r.at - must(sentAt.get(r.json.content.text), 'sentAt.get(r.json.content.text)'));
      expect(toStream).toHaveLength(sentAt.size);
      expect(toWebhook).toHaveLength(sentAt.size);
      return { stream: summary(toStream), webhook: summary(toWebhook) };
    };

    // The same machine, the same moment, without the noise: what this run's load alone costs.
    const baseline = await quietRound('baseline', 8);
    let stop = false;
    const noise = (async () => {
      for (let i = 0; !stop; i++) {
        await inbound(noisy.s.sessionId, '15550008888', `noisy ${i}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const loaded = await quietRound('loaded', 16);
    stop = true;
    await noise;

    const measured = { baseline, loaded };
    console.log(JSON.stringify({ quietTenantLatencyMs: measured }));
    // Before the fix the noise added a second or more to the median (each batch waited out the 2 s
    // budget); the bound leaves 400 ms for chance over the baseline of the same run.
    for (const path of ['stream', 'webhook'] as const) {
      expect(loaded[path].p50, JSON.stringify(measured)).toBeLessThanOrEqual(baseline[path].p50 + 400);
      expect(loaded[path].p90, JSON.stringify(measured)).toBeLessThanOrEqual(baseline[path].p90 + 1_500);
    }
    // The noisy tenant still gets its deliveries, slowly: the first ones have arrived.
    expect(noisy.recv.of('message.inbound').length).toBeGreaterThan(1);
  }, 90_000);
});
