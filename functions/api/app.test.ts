import { describe, expect, it } from 'vitest';
import { createApp } from './app.ts';

describe('the API application', () => {
  it('documents every route it serves in /openapi.json', async () => {
    const app = createApp();
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, object> };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const served = [
      ...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`)),
    ];
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.includes(r))).toEqual([]);
  });
});
