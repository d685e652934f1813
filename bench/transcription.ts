import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resetEnvCache } from '#shared/config/env';
import { transcribe } from '../functions/media/stt/index.ts';
import { startFakeSpeech } from '../tests/support/fake-speech.ts';
import { must } from '../tests/support/must.ts';

/**
 * Speech to text, our side of it: voice notes sent through `transcribe` (the provider chain: multipart
 * body, HTTP call, answer parsed) to a fake OpenAI-compatible provider on loopback that answers at
 * once, so the figure is what the service itself spends per transcription. The floor is a bare
 * `fetch` POST of the same bytes to the same server, measured in the same run. Sequential, then
 * with 8 in flight; throughput per vCPU is the sequential rate (one event loop uses one core).
 *
 * Run: npx tsx bench/transcription.ts [notes per run, default 500] [runs, default 3]
 */
const N = Number(process.argv[2] ?? 500);
const RUNS = Number(process.argv[3] ?? 3);

const fake = await startFakeSpeech();
process.env.STT_BASE_URL = fake.openAiBaseUrl;
process.env.STT_API_KEY = 'bench-key';
// The configuration may have been read already (on import): read again with the provider set.
resetEnvCache();
// A 20 KB voice note (about 5 s of Opus at 32 kbit/s) whose bytes tell the fake what was said.
const note = new Uint8Array(
  Buffer.concat([Buffer.alloc(20_000, 7), Buffer.from('SAY:please book me at ten;')]),
);
const signal = new AbortController().signal;

const pct = (xs: number[], p: number) =>
  must(
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))],
    'a percentile (is the sample empty?)',
  );

async function timed(fn: () => Promise<unknown>, n: number, inFlight: number) {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        next++;
        const s = performance.now();
        await fn();
        lat.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return {
    perSecond: Math.round(n / seconds),
    p50: pct(lat, 0.5).toFixed(2),
    p99: pct(lat, 0.99).toFixed(2),
  };
}

const floor = () =>
  fetch(`${fake.openAiBaseUrl}/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-key' },
    body: Buffer.from(note),
  }).then((r) => r.text());
const ours = () => transcribe(note, 'audio/ogg', { signal });

const rows: Array<Record<string, string | number>> = [];
for (let run = 1; run <= RUNS; run++) {
  await timed(ours, 50, 1); // warm-up
  for (const inFlight of [1, 8]) {
    const f = await timed(floor, N, inFlight);
    const o = await timed(ours, N, inFlight);
    rows.push({
      run,
      inFlight,
      'transcriptions/s': o.perSecond,
      'p50 ms': o.p50,
      'p99 ms': o.p99,
      'floor POST/s': f.perSecond,
      'floor p50 ms': f.p50,
      'ratio p50': (Number(o.p50) / Number(f.p50)).toFixed(2),
    });
  }
}
console.table(rows);
console.log(`${cpus().length} vCPUs; the sequential rate is the throughput of one vCPU (one event loop).`);
console.log(`Reproduce: npx tsx bench/transcription.ts ${N} ${RUNS}`);
await fake.close();
