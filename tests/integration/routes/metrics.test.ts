import { describe, expect, it } from 'vitest';
import { caller } from '../../support/in-process.ts';

/** /metrics and the meta routes in-process (functions/api/metrics/, docs.ts, /health). */
describe('metrics and meta routes', () => {
  it('serves Prometheus text locally, the health checks and the OpenAPI document', async () => {
    const metrics = await caller().get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(String(metrics.body)).toMatch(/^# (HELP|TYPE) /m);
    const health = await caller().get('/health');
    expect(health.status, JSON.stringify(health.body)).toBe(200);
    expect(health.body.checks).toMatchObject({ dynamodb: { ok: true }, s3: { ok: true }, sqs: { ok: true } });
    const doc = await caller().get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const docs = await caller().get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await caller().get('/docs/assets/nothing-here.js')).status).toBe(404);
    expect((await caller().get('/console')).status).toBe(200);
    const nowhere = await caller().get('/api/nowhere');
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.error.code).toBe('NOT_FOUND');
  });
});
