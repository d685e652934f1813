import { handle } from 'hono/aws-lambda';
import { loadSecrets } from '#shared/config/load-secrets';
import { createApp } from './app.ts';

const app = handle(createApp());

/** API Gateway (HTTP API) → the one Hono application, once the signing key is loaded. */
export const handler = async (...args: Parameters<typeof app>) => {
  await loadSecrets();
  return app(...args);
};
