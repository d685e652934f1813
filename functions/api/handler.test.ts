import { afterEach, describe, expect, it } from 'vitest';
import { handler } from './handler.ts';

type Result = { statusCode: number; headers: Record<string, string>; body: string };
const call = (rawPath: string, rawQueryString = '') =>
  (handler as unknown as (e: unknown, ctx: unknown) => Promise<Result>)(
    { version: '2.0', rawPath, rawQueryString, requestContext: { http: { method: 'GET' } }, headers: {} },
    {},
  );

describe('API Lambda handler: the SSE streams live on the load balancer', () => {
  afterEach(() => {
    delete process.env.STREAM_BASE_URL;
  });

  it('redirects both stream paths (with their query) to STREAM_BASE_URL without touching the app', async () => {
    process.env.STREAM_BASE_URL = 'https://stream.example.com';
    const portal = await call('/api/public/portal/prt_abc/stream', 'lastEventId=1');
    expect(portal.statusCode).toBe(307);
    expect(portal.headers.location).toBe(
      'https://stream.example.com/api/public/portal/prt_abc/stream?lastEventId=1',
    );
    const extracted = await call('/api/v1/chatbot/extracted-stream');
    expect(extracted.statusCode).toBe(307);
    expect(extracted.headers.location).toBe('https://stream.example.com/api/v1/chatbot/extracted-stream');
    // Speech synthesis runs on the hosts too (espeak-ng and ffmpeg are in their image).
    const tts = await call('/api/v1/tts');
    expect(tts.statusCode).toBe(307);
    expect(tts.headers.location).toBe('https://stream.example.com/api/v1/tts');
  });

  it('does not redirect other paths, nor anything when STREAM_BASE_URL is unset', async () => {
    process.env.STREAM_BASE_URL = 'https://stream.example.com';
    for (const path of [
      '/openapi.json',
      '/api/public/portal/a/b/stream',
      '/api/v1/chatbot/extracted-stream/x',
    ]) {
      expect((await call(path)).statusCode).not.toBe(307);
    }
    delete process.env.STREAM_BASE_URL;
    expect((await call('/api/v1/chatbot/extracted-stream')).statusCode).not.toBe(307);
  });
});
