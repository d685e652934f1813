import { pino, type TransportSingleOptions } from 'pino';
import { runtimeEnv } from '../config/env.ts';

const runtime = runtimeEnv();

/**
 * LOG_FORMAT=pretty (which `npm start` sets when its output is a terminal) prints readable lines
 * through pino-pretty. It is a devDependency named here only as a transport target, never
 * imported, so no Lambda or host bundle contains it; everywhere else the lines are JSON.
 */
function prettyTransport(): TransportSingleOptions | undefined {
  if (runtime.LOG_FORMAT !== 'pretty') return undefined;
  return {
    target: 'pino-pretty',
    // The transport runs in a worker thread, which cannot see that stdout is a terminal.
    options: {
      colorize: process.stdout.isTTY === true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'svc',
    },
  };
}

/** Structured JSON logs: object first, message last, errors under `err`. Secrets are redacted. */
export const logger = pino({
  level: runtime.LOG_LEVEL,
  base: { svc: runtime.SERVICE_NAME ?? 'wsm' },
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
  transport: prettyTransport(),
});

export type Logger = typeof logger;
