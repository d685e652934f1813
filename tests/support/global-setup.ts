import type { TestProject } from 'vitest/node';
import { freePort, LOOPBACK } from '../../scripts/local/free-port.ts';
import { startService } from '../../scripts/local/service.ts';
import { startFakeAi } from './fake-ai.ts';
import { serveFakeAiControl } from './fake-ai-control.ts';
import { startFakeSheets } from './fake-sheets.ts';
import { startFakeSpeech } from './fake-speech.ts';

/**
 * One running service for the whole run: local DynamoDB/S3/SQS, the HTTP app, the connection host
 * with the simulator, and the queue consumers, exactly as `npm start` runs them.
 */
export default async function setup(project: TestProject) {
  // The chatbot's model provider: a fake Anthropic API, scripted by tests through its control API.
  const fakeAi = await startFakeAi();
  const fakeAiControl = await serveFakeAiControl(fakeAi);
  // Google's token endpoint and Sheets API for the contacts export (tests/support/fake-sheets.ts).
  const fakeSheets = await startFakeSheets();
  // Speech-to-text providers (tests/support/fake-speech.ts), scripted by the audio they receive.
  const fakeSpeech = await startFakeSpeech();
  // The one browser origin allowed to call the service (tests/e2e/cors-browser.test.ts serves its
  // page there): only requests carrying that Origin header see a difference.
  const corsPageOrigin = `http://${LOOPBACK}:${await freePort()}`;
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
      // Open streams notice a revoked credential within a second, not five.
      SSE_ACCESS_RECHECK_MS: '500',
      CORS_ORIGINS: corsPageOrigin,
      ANTHROPIC_BASE_URL: fakeAi.url,
      GOOGLE_SHEETS_BASE_URL: fakeSheets.url,
      GOOGLE_OAUTH_TOKEN_URL: fakeSheets.tokenUrl,
      STT_BASE_URL: fakeSpeech.openAiBaseUrl,
      STT_API_KEY: 'stt-e2e-key',
      SARVAM_BASE_URL: fakeSpeech.url,
      SARVAM_API_KEY: 'sarvam-e2e-key',
      ANTHROPIC_API_KEYS: 'sk-e2e-primary-0,sk-e2e-primary-1',
      // Human-like delivery kept, in tenths of the production times.
      CHATBOT_PAUSE_MIN_MS: '50',
      CHATBOT_PAUSE_MAX_MS: '150',
      CHATBOT_TYPING_MIN_MS: '200',
      CHATBOT_TYPING_MAX_MS: '600',
    },
  });
  project.provide('baseUrl', service.baseUrl);
  project.provide('adminApiKey', service.adminApiKey);
  project.provide('serviceEnv', service.env);
  project.provide('fakeAiControlUrl', fakeAiControl.url);
  project.provide('fakeSheetsUrl', fakeSheets.url);
  project.provide('fakeSpeechUrl', fakeSpeech.url);
  project.provide('corsPageOrigin', corsPageOrigin);
  return async () => {
    await service.stop();
    await fakeAiControl.close();
    await fakeAi.close();
    await fakeSheets.close();
    await fakeSpeech.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminApiKey: string;
    serviceEnv: Record<string, string>;
    fakeSheetsUrl: string;
    fakeSpeechUrl: string;
    corsPageOrigin: string;
  }
}
