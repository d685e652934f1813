import type { TestProject } from 'vitest/node';
import { startService } from '../../scripts/local/service.ts';

/**
 * One running service for the whole run: local DynamoDB/S3/SQS, the HTTP app, the connection host
 * with the simulator, and the queue consumers, exactly as `npm start` runs them.
 */
export default async function setup(project: TestProject) {
  const service = await startService({
    driver: 'simulator',
    port: 0,
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Pacing stays on, faster than production's one message a second per session.
      SEND_INTERVAL_MS: '50',
      // Zombie probing within seconds, so the health tests need not wait 90 s.
      ZOMBIE_IDLE_MS: '2000',
      // Webhook retries in seconds rather than the production hour.
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
    },
  });
  project.provide('baseUrl', service.baseUrl);
  project.provide('adminApiKey', service.adminApiKey);
  project.provide('serviceEnv', service.env);
  return () => service.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminApiKey: string;
    serviceEnv: Record<string, string>;
  }
}
