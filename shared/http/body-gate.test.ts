import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { router } from './context.ts';
import { serviceApp } from './service-app.ts';

/** One JSON route in the service frame, as every API route is built. */
function app() {
  const r = router();
  r.openapi(
    createRoute({
      method: 'post',
      path: '/echo',
      request: { body: { content: { 'application/json': { schema: z.object({ v: z.unknown() }) } } } },
      responses: { 200: { description: 'OK' } },
    }),
    (c) => c.json({ success: true, v: c.req.valid('json').v }, 200),
  );
  const a = serviceApp();
  a.route('/', r);
  return a;
}

const post = (body: string) =>
  app().request('/echo', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('JSON bodies of every route', () => {
  it('answer 400 VALIDATION_FAILED for deep nesting, lone surrogates and NUL, before validation', async () => {
    const cases = [
      `{"v":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      '{"v":"\\ud800"}',
      '{"v":"a\\u0000b"}',
    ];
    for (const body of cases) {
      const res = await post(body);
      expect(res.status, body.slice(0, 30)).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('still parse what they check: the handler sees the same value', async () => {
    const res = await post('{"v":{"e":"\\ud83d\\ude00","n":[1,[2]]}}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, v: { e: '😀', n: [1, [2]] } });
  });
});
