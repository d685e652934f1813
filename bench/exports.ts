import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startService } from '../scripts/local/service.ts';
import { benchTenant, seedContacts } from './support/bench-tenant.ts';
import { liveBytes, memoryPeak } from './support/memory-peak.ts';

/**
 * Export memory and speed: N contacts seeded into one session of a fresh tenant (BatchWriteItem
 * straight into the local DynamoDB, as the events consumer would have stored them), then
 * `POST /api/admin/export/contacts` as CSV and as JSON, read by a client that keeps nothing. The
 * service runs in this process (startService: DynamoDB Local, the HTTP app, host, consumers);
 * RSS and live memory (V8 heap used + array buffers) are sampled every 10 ms during each export;
 * the figures are the peaks minus the values after a forced GC just before the export. RSS rarely
 * shrinks after the seeding, and the heap peak includes garbage not yet collected, so the export
 * also forces a GC halfway through and reports what is still held then (`retainedMidwayMB`: the
 * deduplication set, the page in hand, buffered output).
 *
 * Run: npx tsx bench/exports.ts [contacts=100000]
 */
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const N = Number(process.argv[2] ?? 100_000);
const MB = 1024 * 1024;

const service = await startService({ driver: 'simulator', port: 0, env: { LOG_LEVEL: 'warn' } });
try {
  const { call, admin, token, tenantId } = await benchTenant(service.baseUrl, service.adminApiKey);
  const session = (await call('POST', '/api/sessions', token, { name: 'bench' })).body.session;
  const sessionId = session.sessionId as string;

  const seedStart = Date.now();
  await seedContacts(tenantId, sessionId, N);
  console.log(`seeded ${N} contacts in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

  const results: Record<string, unknown>[] = [];
  for (const format of ['csv', 'json'] as const) {
    gc();
    const memory = memoryPeak();
    const t0 = performance.now();
    const res = await fetch(
      `${service.baseUrl}/api/admin/export/contacts?tenantId=${tenantId}&format=${format}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
      },
    );
    let bytes = 0;
    let rows = 0;
    let firstByteMs = 0;
    let retainedMidway: number | undefined;
    const marker = format === 'csv' ? 10 : 123; // '\n' per CSV record, '{' per JSON object
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (!bytes) firstByteMs = performance.now() - t0;
      bytes += chunk.length;
      for (const b of chunk) if (b === marker) rows++;
      if (retainedMidway === undefined && rows >= N / 2) {
        gc();
        retainedMidway = liveBytes() - memory.baseLive;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    memory.stop();
    // CSV: minus the header line; JSON: minus the envelope's own brace.
    const dataRows = rows - 1;
    results.push({
      format,
      status: res.status,
      rows: dataRows,
      MB: +(bytes / MB).toFixed(1),
      seconds: +seconds.toFixed(1),
      rowsPerSecond: Math.round(dataRows / seconds),
      firstByteMs: Math.round(firstByteMs),
      ...memory.stop(),
      retainedMidwayMB: +((retainedMidway ?? 0) / MB).toFixed(1),
    });
  }
  console.table(results);
  const bad = results.filter(
    (r) => r.rows !== N || (r.peakRssGrowthMB as number) >= 50 || (r.retainedMidwayMB as number) >= 50,
  );
  if (bad.length) {
    console.error('FAILED: every export must hold all rows, with RSS growth and live memory under 50 MB');
    process.exitCode = 1;
  }
} finally {
  await service.stop();
}
