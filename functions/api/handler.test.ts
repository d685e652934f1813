import { afterEach, describe, expect, it } from 'vitest';
import { handler } from './handler.ts';

type Result = { statusCode: number; headers: Record<string, string>; body: string };
const call = (rawPath: string, rawQueryString = '', method = 'GET') =>
  (handler as unknown as (e: unknown, ctx: unknown) => Promise<Result>)(
    {
      version: '2.0',
      rawPath,
      rawQueryString,
      requestContext: { http: { method } },
      headers: { authorization: 'Bearer secret-token' },
    },
    {},
  );

describe('API Lambda handler: the streams are served on the public address, never redirected to', () => {
  afterEach(() => {
    delete process.env.STREAM_BASE_URL;
  });

  it('answers a stream or speech path with a JSON error naming the public URL, no redirect, no query echoed', async () => {
    process.env.STREAM_BASE_URL = 'https://wa.example.com';
    const cases = [
      ['/api/public/portal/prt_abc/stream', 'key=wsk_secret&lastEventId=1', 'GET'],
      ['/api/v1/chatbot/extracted-stream', 'key=wsk_secret', 'GET'],
      // Speech synthesis runs on the hosts (espeak-ng and ffmpeg are in their image).
      ['/api/v1/tts', '', 'POST'],
    ] as const;
    for (const [path, query, method] of cases) {
      const r = await call(path, query, method);
      expect(r.statusCode, path).toBe(404);
      expect(r.headers.location, path).toBeUndefined();
      expect(r.headers['content-type'], path).toBe('application/json');
      expect(JSON.parse(r.body), path).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: expect.stringContaining(`https://wa.example.com${path} `) },
      });
      expect(r.body, path).not.toContain('wsk_secret');
    }
  });

  it('leaves other paths to the app, and everything when STREAM_BASE_URL is unset', async () => {
    process.env.STREAM_BASE_URL = 'https://wa.example.com';
    for (const path of [
      '/openapi.json',
      '/api/public/portal/a/b/stream',
      '/api/v1/chatbot/extracted-stream/x',
    ]) {
      expect((await call(path)).body, path).not.toContain('does not serve streams');
    }
    delete process.env.STREAM_BASE_URL;
    expect((await call('/api/v1/chatbot/extracted-stream')).body).not.toContain('does not serve streams');
  });
});
