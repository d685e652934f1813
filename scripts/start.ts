import { env } from '#shared/config/env';

// Readable log lines on a terminal, JSON when piped or redirected (LOG_FORMAT overrides). Set before
// anything loads the logger, which reads it once: hence the dynamic import.
process.env.LOG_FORMAT ??= process.stdout.isTTY ? 'pretty' : 'json';
const { startService } = await import('./local/service.ts');

/** `npm start`: the whole service on this machine, data under DATA_DIR (default .data/). */
const dataDir = process.env.DATA_DIR ?? '.data';
// What cannot start (Java missing, a port taken) is told in one line, without a stack trace.
const service = await startService({ dataDir }).catch((err: Error) => {
  console.error(`npm start: ${err.message}`);
  process.exit(1);
});
const line = '─'.repeat(60);
console.log(`
${line}
 Messaging session manager is running (driver: ${env().MESSAGING_DRIVER})
   API        ${service.baseUrl}
   Docs       ${service.baseUrl}/docs      OpenAPI ${service.baseUrl}/openapi.json
   Health     ${service.baseUrl}/health
   Admin key  ${service.adminApiKey}${service.generatedAdminKey ? `  (generated, stored in ${dataDir}/secrets.json)` : ''}
   Data       ${dataDir}/
   Network    every server listens on 127.0.0.1 only (API, DynamoDB Local, S3/SQS, secrets)
 Ctrl-C stops everything; the next npm start keeps the data.
${line}
`);

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
