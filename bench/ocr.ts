import { cpus, loadavg } from 'node:os';
import sharp from 'sharp';
import { recognise, shutdownOcr, startOcr } from '../functions/media/ocr/index.ts';
import { textImage } from '../functions/media/ocr/test-images.ts';
import { useBundledFonts } from '../tests/support/fonts.ts';
import { pct } from './support/stats.ts';

useBundledFonts();

/**
 * OCR throughput per vCPU and the memory held by the OCR worker (functions/media/ocr).
 *
 * One worker thread (as in the media consumer). Throughput is given two ways: images per second of
 * wall time, and images per CPU-second (process CPU time, worker thread included); tesseract's wasm
 * runs on one thread, so the second is the figure per vCPU and holds on a busy machine too.
 * Memory: RSS (after GC) before the worker exists, after it has started, and after the images.
 * Floor: the time sharp takes to decode the same image to raw pixels, a step OCR cannot skip.
 *
 * Run: npx tsx --expose-gc bench/ocr.ts [images per run=20] [runs=3]
 */
const N = Number(process.argv[2] ?? 20);
const RUNS = Number(process.argv[3] ?? 3);

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
function rss() {
  gc?.();
  return process.memoryUsage().rss;
}
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const LINES = [
  'Dr. Anitha Menon MBBS MD',
  'Patient: Rahul Nair, 42 years',
  'Date: 14 November 2026',
  'Rx Paracetamol 500 mg tablets',
  'One tablet three times daily after food',
  'Amoxicillin 250 mg capsules for five days',
  'Review after one week with blood report',
  'Clinic phone 0484 2345678',
];

async function images() {
  const receipt = await textImage(LINES, { width: 1000, fontSize: 36 });
  // A phone photo as WhatsApp delivers it: 1600×1200 JPEG, the same text larger.
  const page = await textImage(LINES, { width: 1600, fontSize: 56 });
  const photo = await sharp(page)
    .resize(1600, 1200, { fit: 'contain', background: 'white' })
    .jpeg({ quality: 80 })
    .toBuffer();
  return [
    { name: 'receipt PNG 1000 px wide, 8 lines', data: receipt },
    { name: 'photo JPEG 1600×1200, 8 lines', data: photo },
  ];
}

async function decodeFloor(data: Buffer) {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await sharp(data).greyscale().raw().toBuffer();
    times.push(performance.now() - t0);
  }
  return pct(
    times.sort((a, b) => a - b),
    50,
  );
}

async function main() {
  console.log(`command: npx tsx --expose-gc bench/ocr.ts ${N} ${RUNS}`);
  console.log(
    `node ${process.version}, ${cpus().length} vCPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, gc ${gc ? 'forced' : 'not exposed (run with --expose-gc)'}`,
  );
  const set = await images();

  const before = rss();
  const t0 = performance.now();
  await startOcr(['eng']);
  const startMs = performance.now() - t0;
  const started = rss();
  console.log(`worker start (eng): ${startMs.toFixed(0)} ms`);
  console.log(`RSS before worker ${mb(before)}, after start ${mb(started)} (+${mb(started - before)})`);

  for (const langs of [['eng'], ['eng', 'mal']]) {
    for (const image of set) {
      await recognise(image.data, langs); // warm: language switch and first-image allocations
      const floor = await decodeFloor(image.data);
      const wall: number[] = [];
      const perCpu: number[] = [];
      const latencies: number[] = [];
      let sample = '';
      for (let r = 0; r < RUNS; r++) {
        const w0 = performance.now();
        const c0 = cpuSeconds();
        for (let i = 0; i < N; i++) {
          const result = await recognise(image.data, langs);
          latencies.push(result.ms);
          sample = `${result.confidence}% "${result.text.split('\n').filter(Boolean)[3] ?? ''}"`;
        }
        wall.push(N / ((performance.now() - w0) / 1000));
        perCpu.push(N / (cpuSeconds() - c0));
      }
      latencies.sort((a, b) => a - b);
      console.log(
        [
          `${langs.join('+')} | ${image.name} (${(image.data.byteLength / 1024).toFixed(0)} KB)`,
          `  images/s (wall, 1 worker) per run: ${wall.map((x) => x.toFixed(2)).join(', ')}`,
          `  images per CPU-second per run:     ${perCpu.map((x) => x.toFixed(2)).join(', ')}`,
          `  per image p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms; floor (sharp decode) p50 ${floor.toFixed(1)} ms`,
          `  sample: ${sample}`,
          `  RSS now ${mb(rss())}`,
        ].join('\n'),
      );
    }
  }
  const after = rss();
  console.log(`RSS after ${RUNS * N * 4 + 4} images ${mb(after)} (+${mb(after - before)} over no worker)`);
  await shutdownOcr();
  await new Promise((r) => setTimeout(r, 200));
  console.log(`RSS after terminate ${mb(rss())}`);
}

await main();
