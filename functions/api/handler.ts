import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { runtimeEnv } from '#shared/config/env';
import { servedByHost } from '#shared/host/paths';
import { errorBody, statusOf } from '#shared/http/errors';
import { flushMetrics } from '#shared/metrics/flush';
import { createLazyApp } from './app.ts';

const app = handle(createLazyApp());

/**
 * API Gateway (HTTP API) → the one Hono application (which loads the secrets first).
 *
 * The long-lived SSE streams and speech synthesis (espeak-ng and ffmpeg are in the host image): in
 * the cloud the connection hosts serve them (shared/host/paths.ts), reached through the same public
 * name as the API (the CloudFront distribution routes those paths to the load balancer).
 *
 * A stream request reaches this function only when a client calls API Gateway's own address instead
 * of the public one. It is answered with a JSON error naming the public URL, never a redirect: a
 * redirect to another host loses the client's `Authorization` header (curl, fetch and browsers drop
 * it), carries a `?key=` to wherever it points, and gives a cross-origin EventSource no CORS answer.
 * API Gateway could not serve the stream itself (it buffers responses and cuts them at 30 s).
 */
export const handler = async (...args: Parameters<typeof app>) => {
  const event = args[0] as unknown as Partial<APIGatewayProxyEventV2>;
  const streams = runtimeEnv().STREAM_BASE_URL;
  if (streams && typeof event?.rawPath === 'string' && servedByHost(event.rawPath)) {
    // The query is left out: it may hold a key.
    const url = `${streams}${event.rawPath}`;
    return {
      statusCode: statusOf('NOT_FOUND'),
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      body: JSON.stringify(
        errorBody(
          'NOT_FOUND',
          `this address does not serve streams or speech: use ${url} (the public address)`,
        ),
      ),
    };
  }
  try {
    return await app(...args);
  } finally {
    flushMetrics();
  }
};
