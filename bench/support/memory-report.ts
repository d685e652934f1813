import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

/**
 * Preloaded (`node --import`) into a bench's child process: on SIGPWR, after a full GC where
 * available (--expose-gc), writes the process's memory by kind to `<BENCH_MEMORY_DIR>/<pid>.json`:
 * RSS, the V8 heap (used and committed, by space), and what lives outside it (array buffers,
 * native allocations), so a bench can say where its memory goes.
 */
const dir = process.env.BENCH_MEMORY_DIR;
if (dir)
  process.on('SIGPWR', () => {
    (globalThis as { gc?: () => void }).gc?.();
    const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
    const u = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [
        s.space_name,
        { usedMb: mb(s.space_used_size), committedMb: mb(s.physical_space_size) },
      ]),
    );
    writeFileSync(
      `${dir}/${process.pid}.json`,
      JSON.stringify({
        rssMb: mb(u.rss),
        heapUsedMb: mb(u.heapUsed),
        heapTotalMb: mb(u.heapTotal),
        externalMb: mb(u.external),
        arrayBuffersMb: mb(u.arrayBuffers),
        outsideHeapMb: mb(u.rss - u.heapTotal - u.external),
        spaces,
      }),
    );
  });
