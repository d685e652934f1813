import { describe, expect, it } from 'vitest';
import { HOST_LIVENESS_PATH, HOST_PATHS, servedByHost } from '#shared/host/paths';
import { hostApp } from './http.ts';

/** A Hono route path (`/api/public/portal/:portal_id/stream`) as a path pattern (`…/*\/stream`). */
const asPattern = (path: string) => path.replace(/:[^/]+/g, '*');

describe('what the connection host serves', () => {
  const served = new Set(hostApp().routes.map((r) => asPattern(r.path)));

  it('serves every path the distribution and the load balancer send it, and its liveness check', () => {
    for (const path of [...HOST_PATHS, HOST_LIVENESS_PATH]) expect(served, path).toContain(path);
  });

  it('knows its public paths as the API function does, one segment for a portal id', () => {
    expect(servedByHost('/api/public/portal/prt_abc/stream')).toBe(true);
    expect(servedByHost('/api/v1/chatbot/extracted-stream')).toBe(true);
    expect(servedByHost('/api/v1/tts')).toBe(true);
    expect(servedByHost('/api/public/portal/a/b/stream')).toBe(false);
    expect(servedByHost('/api/v1/chatbot/extracted-stream/x')).toBe(false);
    expect(servedByHost('/api/v1/ttsx')).toBe(false);
    expect(servedByHost('/health')).toBe(false);
  });
});
