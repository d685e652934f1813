import { startService } from '../../scripts/local/service.ts';

/**
 * `npm start` as a child process for crash tests: the whole service on the data directory
 * `DATA_DIR`, with the simulator. Prints one JSON line `{baseUrl, env}` once it is ready (`env`: its
 * AWS endpoints, names and secrets).
 */
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is required');
const service = await startService({ dataDir, driver: 'simulator', port: 0 });
process.stdout.write(`${JSON.stringify({ baseUrl: service.baseUrl, env: service.env })}\n`);
process.on('SIGTERM', async () => {
  await service.stop();
  process.exit(0);
});
