import { pino } from 'pino';

/** Structured JSON logs: object first, message last, errors under `err`. Secrets are redacted. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { svc: process.env.SERVICE_NAME ?? 'wsm' },
  redact: {
    paths: [
      '*.authorization',
      '*.Authorization',
      '*.apiKey',
      '*.token',
      '*.secretToken',
      '*.password',
      'headers["x-api-key"]',
      'headers["x-service-secret"]',
    ],
    censor: '[redacted]',
  },
  serializers: { err: pino.stdSerializers.err },
});

export type Logger = typeof logger;
