import { env } from '#shared/config/env';

// Readable log lines on a terminal, JSON when piped or redirected (LOG_FORMAT overrides). Set before
// anything loads the logger, which reads it once: hence the dynamic import.
process.env.LOG_FORMAT ??= process.stdout.isTTY ? 'pretty' : 'json';
const { startService } = await import('./local/service.ts');
const { banner } = await import('./local/banner.ts');

/** `npm start`: the whole service on this machine, data under DATA_DIR (default .data/). */
const dataDir = process.env.DATA_DIR ?? '.data';
// HOSTS=<n>: n connection hosts as their own processes, sharing the shards (default 1, in this process).
const hosts = Number(process.env.HOSTS ?? 1);
if (!Number.isInteger(hosts) || hosts < 1 || hosts > 64) {
  console.error(`npm start: HOSTS must be a whole number from 1 to 64, not ${process.env.HOSTS}`);
  process.exit(1);
}
// What cannot start (Java missing, a port taken) is told in one line, without a stack trace.
const service = await startService({ dataDir, hosts }).catch((err: Error) => {
  console.error(`npm start: ${err.message}`);
  process.exit(1);
});
console.log(
  banner({
    baseUrl: service.baseUrl,
    driver: env().MESSAGING_DRIVER,
    adminApiKey: service.adminApiKey,
    generatedAdminKey: service.generatedAdminKey,
    dataDir,
  }),
);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping…');
    await service.stop();
    process.exit(0);
  });
}
