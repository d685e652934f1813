import { describe, expect, it } from 'vitest';
import { createApp, createLazyApp } from './app.ts';

describe('the API application', () => {
  it('documents every route it serves in /openapi.json', async () => {
    const app = await createApp();
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, object> };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    // `/mcp` speaks JSON-RPC (the MCP streamable-HTTP transport, docs/mcp.md), not REST: its
    // contract is the MCP specification's, so it is not in the OpenAPI document.
    const notRest = (path: string) => path === '/mcp';
    const served = [
      ...new Set(
        app.routes.filter((r) => r.method !== 'ALL' && !notRest(r.path)).map((r) => `${r.method} ${r.path}`),
      ),
    ];
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.includes(r))).toEqual([]);
  });
});

describe('the API Lambda application (routes built a prefix at a time)', () => {
  it('answers as the whole application does: documents, errors, auth, validation, unknown paths', async () => {
    const eager = await createApp();
    const lazy = createLazyApp();
    const requests: Array<[string, RequestInit?]> = [
      ['/openapi.json'],
      ['/nowhere'],
      ['/api/v1/nowhere'],
      ['/api/sessions', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
      ['/api/v1/chatbot/rules'],
      [
        '/api/v1/payments/link',
        { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } },
      ],
      [
        '/api/auth/token',
        { method: 'POST', body: '{"apiKey":5}', headers: { 'content-type': 'application/json' } },
      ],
      ['/api/auth/token', { method: 'POST', body: 'not json', headers: { 'content-type': 'text/plain' } }],
      ['/api/public/portal/p_x/stream'],
      ['/view/messages/v1'],
      ['/metrics'],
    ];
    for (const [path, init] of requests) {
      const [a, b] = await Promise.all([eager.request(path, init), lazy.request(path, init)]);
      expect(b.status, path).toBe(a.status);
      expect(b.headers.get('content-type'), path).toBe(a.headers.get('content-type'));
      const [ta, tb] = await Promise.all([a.text(), b.text()]);
      // Error bodies name the request id of each request; everything else is the same.
      const strip = (t: string) => t.replace(/request id [\w-]+/g, 'request id …');
      expect(strip(tb), path).toBe(strip(ta));
    }
    // One request id per answer, the caller's when given.
    const given = await lazy.request('/api/v1/chatbot/rules', { headers: { 'x-request-id': 'req-42' } });
    expect(given.headers.get('x-request-id')).toBe('req-42');
    const generated = await lazy.request('/api/v1/chatbot/rules');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
