import { startService } from '../scripts/local/service.ts';
import { startFakeAi } from '../tests/support/fake-ai.ts';
import { must } from '../tests/support/must.ts';
import { benchTenant, readyBenchSession } from './support/bench-tenant.ts';
import { pct } from './support/stats.ts';

/**
 * Inbound → reply dispatched, through the whole pipeline on one machine: `/_sim/inbound` → host →
 * events queue → events consumer → chatbot queue → chatbot consumer (rules, model) → command queue →
 * host → the simulated network's outbox. The deliberate delays are set to zero here (debounce
 * CHATBOT_DEBOUNCE_MS, pause CHATBOT_PAUSE_*, typing CHATBOT_TYPING_*, pacing SEND_INTERVAL_MS), so
 * the figure is the pipeline's own time; in production add the debounce (1 s), the pause (0.3–1 s) and
 * the typing delay (1.2–5 s). Two paths: a static rule (no model call) and the model, with the fake
 * provider answering in MODEL_DELAY_MS (default 500 ms), which is the floor of the model path.
 *
 * Run: npx tsx bench/chatbot-reply.ts [runs=50] [modelDelayMs=500]
 */
const RUNS = Number(process.argv[2] ?? 50);
const MODEL_DELAY_MS = Number(process.argv[3] ?? 500);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const fake = await startFakeAi();
  fake.behave('bench-key-0', { kind: 'answer', delayMs: MODEL_DELAY_MS });
  const service = await startService({
    driver: 'simulator',
    port: 0,
    env: {
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SEND_INTERVAL_MS: '0',
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEYS: 'bench-key-0',
      CHATBOT_DEBOUNCE_MS: '0',
      CHATBOT_PAUSE_MIN_MS: '0',
      CHATBOT_PAUSE_MAX_MS: '0',
      CHATBOT_TYPING_MIN_MS: '0',
      CHATBOT_TYPING_MAX_MS: '0',
    },
  });
  try {
    const { call, token } = await benchTenant(service.baseUrl, service.adminApiKey);
    const session = { sessionId: await readyBenchSession(call, token) };
    await call('POST', '/api/v1/chatbot/rules', token, {
      mobid: '*',
      triggerType: 'exact',
      keyword: 'opening hours',
      replyType: 'text',
      response: 'We are open 9 to 6.',
    });
    await call('POST', '/api/v1/chatbot/toggle', token, { mobid: session.sessionId, enabled: true });

    let n = 0;
    const seen = new Set<string>();
    /** One inbound message from a new customer; ms until its reply is in the network's outbox. */
    const once = async (text: string) => {
      const from = `9190000${String(n++).padStart(5, '0')}`;
      const t0 = Date.now();
      const r = await call('POST', '/_sim/inbound', undefined, { sessionId: session.sessionId, from, text });
      if (r.status !== 200) throw new Error(`inbound answered ${r.status}`);
      for (;;) {
        const out = (await call('GET', `/_sim/outbox?sessionId=${session.sessionId}`)).body
          .messages as Array<{
          id: string;
          to: string;
          at: number;
        }>;
        const reply = out.find((m) => m.to.startsWith(from) && !seen.has(m.id));
        if (reply) {
          seen.add(reply.id);
          return reply.at - t0;
        }
        if (Date.now() - t0 > 30_000) throw new Error(`no reply to ${from}`);
        await sleep(5);
      }
    };

    const measure = async (label: string, text: string) => {
      for (let i = 0; i < 3; i++) await once(text); // warm-up
      const t: number[] = [];
      for (let i = 0; i < RUNS; i++) t.push(await once(text));
      t.sort((a, b) => a - b);
      console.log(
        `${label.padEnd(28)} runs ${RUNS}  p50 ${pct(t, 50).toFixed(0)} ms  p99 ${pct(t, 99).toFixed(0)} ms  max ${must(t.at(-1), 't.at(-1)').toFixed(0)} ms`,
      );
    };

    console.log(`npx tsx bench/chatbot-reply.ts ${RUNS} ${MODEL_DELAY_MS}`);
    console.log(
      'inbound → reply in the outbox, deliberate delays (debounce, pause, typing, pacing) set to 0',
    );
    await measure('rule (no model call)', 'opening hours');
    await measure(`model (fake answers in ${MODEL_DELAY_MS} ms)`, 'can I book a cleaning on Friday?');
    console.log(`floor of the model path: the model's ${MODEL_DELAY_MS} ms`);
  } finally {
    await service.stop();
    await fake.close();
  }
}

await main();
process.exit(0);
