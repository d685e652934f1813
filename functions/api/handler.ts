import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { flushMetrics } from '#shared/metrics/flush';
import { createLazyApp } from './app.ts';

const app = handle(createLazyApp());

/**
 * The long-lived SSE streams and speech synthesis (espeak-ng and ffmpeg are in the host image): in
 * the cloud the connection hosts behind the load balancer serve them.
 */
const STREAM_PATH =
  /^\/api\/public\/portal\/[^/]+\/stream$|^\/api\/v1\/chatbot\/extracted-stream$|^\/api\/v1\/tts$/;

/**
 * API Gateway (HTTP API) → the one Hono application (which loads the secrets first). A stream request
 * is redirected (307) to the same path on `STREAM_BASE_URL` (set by the stack): API Gateway would cut
 * it after 30 s and buffer it, and EventSource clients follow the redirect.
 */
export const handler = async (...args: Parameters<typeof app>) => {
  const event = args[0] as unknown as Partial<APIGatewayProxyEventV2>;
  const streams = process.env.STREAM_BASE_URL;
  if (streams && typeof event?.rawPath === 'string' && STREAM_PATH.test(event.rawPath)) {
    const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
    return {
      statusCode: 307,
      headers: { location: `${streams}${event.rawPath}${query}`, 'cache-control': 'no-store' },
      body: '',
    };
  }
  try {
    return await app(...args);
  } finally {
    flushMetrics();
  }
};
