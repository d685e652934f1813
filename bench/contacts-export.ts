import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { startService } from '../scripts/local/service.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { benchTenant, seedContacts } from './support/bench-tenant.ts';
import { memoryPeak } from './support/memory-peak.ts';

/**
 * The tenant contacts export (`POST /api/sessions/contacts/export`) over N contacts seeded into one
 * session (BatchWriteItem into the local DynamoDB, as bench/exports.ts does): `csv` streamed
 * (`delivery: inline`, read by a client that keeps nothing), `csv` with the default `auto` delivery
 * (more than CONTACTS_EXPORT_S3_THRESHOLD rows → a streamed multipart upload to the local S3 and a
 * link), and `sqltable` into a real local PostgreSQL. RSS is sampled every 10 ms; the figure is the
 * peak minus the RSS after a forced GC just before each export (RSS rarely shrinks after the seeding,
 * so `peakHeapGrowthMB`, V8 heap used + array buffers, including garbage not yet collected, is the
 * sharper figure, reported but not judged: it counts garbage). Fails above 50 MB RSS growth or on a
 * missing row.
 *
 * Run: npx tsx bench/contacts-export.ts [contacts=100000]
 */
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const N = Number(process.argv[2] ?? 100_000);
const MB = 1024 * 1024;

const db = await startPostgres();
const service = await startService({
  driver: 'simulator',
  port: 0,
  env: { LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
});
try {
  const { call, token, tenantId } = await benchTenant(service.baseUrl, service.adminApiKey);
  const session = (await call('POST', '/api/sessions', token, { name: 'bench' })).body.session;
  const sessionId = session.sessionId as string;

  const seedStart = Date.now();
  await seedContacts(tenantId, sessionId, N);
  console.log(`seeded ${N} contacts in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
  const put = await fetch(`${service.baseUrl}/api/sessions/contacts/export/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ sqltable: { connectionString: db.url, table: 'bench_contacts' } }),
  });
  if (put.status !== 200) throw new Error(`settings: ${put.status}`);

  const results: Record<string, unknown>[] = [];
  const cases = [
    { name: 'csv inline', body: { exportType: 'csv', delivery: 'inline' } },
    { name: 'csv auto → S3', body: { exportType: 'csv' } },
    { name: 'sqltable', body: { exportType: 'sqltable' } },
  ];
  for (const c of cases) {
    gc();
    const memory = memoryPeak();
    const t0 = performance.now();
    const res = await fetch(`${service.baseUrl}/api/sessions/contacts/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    });
    let rows = 0;
    let bytes = 0;
    if (res.headers.get('content-type')?.includes('text/csv')) {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) rows++;
      }
      rows -= 1; // header
    } else {
      const body = (await res.json()) as { totalContacts?: number; downloadUrl?: string };
      rows = body.totalContacts ?? -1;
      if (body.downloadUrl) {
        // Read the stored file back (outside the measured memory: the sampler stops first).
        memory.stop();
        const file = await fetch(body.downloadUrl);
        let lines = 0;
        for await (const chunk of file.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (const b of chunk) if (b === 10) lines++;
        }
        if (lines - 1 !== rows) rows = lines - 1;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    memory.stop();
    results.push({
      case: c.name,
      status: res.status,
      rows,
      MB: +(bytes / MB).toFixed(1),
      seconds: +seconds.toFixed(1),
      rowsPerSecond: Math.round(rows / seconds),
      ...memory.stop(),
    });
  }
  const client = new pg.Client(db.url);
  await client.connect();
  const inTable = Number((await client.query('SELECT count(*) AS n FROM bench_contacts')).rows[0].n);
  await client.end();
  console.table(results);
  console.log(`rows in PostgreSQL: ${inTable}`);
  const bad = results.filter((r) => r.rows !== N || (r.peakRssGrowthMB as number) >= 50);
  if (bad.length || inTable !== N) {
    console.error('FAILED: every export must hold all rows, with RSS growth under 50 MB');
    process.exitCode = 1;
  }
} finally {
  await service.stop();
  await db.stop();
}
