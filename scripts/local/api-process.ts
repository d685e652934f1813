import { startService } from './service.ts';

/**
 * The HTTP app and consumers as a child process on AWS endpoints that are already running (no host
 * unless WITH_HOST=true). Prints one JSON line `{"baseUrl": …}` when ready; tests and benches use it.
 */
const service = await startService({ aws: 'external', withHost: process.env.WITH_HOST === 'true', port: 0 });
process.stdout.write(`${JSON.stringify({ baseUrl: service.baseUrl })}\n`);
process.on('SIGTERM', async () => {
  await service.stop();
  process.exit(0);
});
