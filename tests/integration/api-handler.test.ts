import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../scripts/local/free-port.ts';
import { httpApiEvent } from '../support/api-gateway-event.ts';
import { must } from '../support/must.ts';

/**
 * The API Lambda's handler (functions/api/handler.ts) invoked as API Gateway (HTTP API) invokes it,
 * against the local stack, with the stack's way of handing it secrets (`<NAME>_ARN` variables).
 * Each test imports the handler afresh: the secrets are loaded once per process.
 */

type Reply = { statusCode: number; headers: Record<string, string>; body: string };
type Handler = (event: unknown, context: unknown) => Promise<Reply>;

const event = (rawPath: string, rawQueryString = '', headers: Record<string, string> = {}) =>
  httpApiEvent({ rawPath, rawQueryString, headers });

const saved = { ...process.env };
let errorLogs: unknown[][] = [];

/** A fresh handler module (and logger, whose error lines are kept) under the current environment. */
async function freshHandler(): Promise<
  (path: string, query?: string, headers?: Record<string, string>) => Promise<Reply>
> {
  vi.resetModules();
  const { logger } = await import('#shared/log/logger');
  vi.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => {
    errorLogs.push(args);
  });
  const { handler } = (await import('../../functions/api/handler.ts')) as unknown as { handler: Handler };
  return (path, query, headers) => handler(event(path, query, headers), {});
}

const json = (r: Reply) => JSON.parse(r.body);
const sm = () => new SecretsManagerClient({ region: 'us-east-1' });

beforeEach(() => {
  errorLogs = [];
});
afterEach(() => {
  process.env = { ...saved };
  vi.restoreAllMocks();
});

describe('API Lambda handler with API Gateway v2 events', () => {
  it('answers health, docs and refuses a stream path (no redirect) when its secrets load', async () => {
    const secret = await sm().send(
      new CreateSecretCommand({ Name: `jwt-${Date.now()}`, SecretString: 'k'.repeat(48) }),
    );
    delete process.env.JWT_SECRET;
    process.env.JWT_SECRET_ARN = must(secret.ARN, 'secret.ARN');
    process.env.STREAM_BASE_URL = 'https://streams.example.test';
    const call = await freshHandler();

    const health = await call('/health');
    expect(health.statusCode).toBe(200);
    expect(json(health).checks).toMatchObject({
      secrets: { ok: true },
      dynamodb: { ok: true },
      s3: { ok: true },
      sqs: { ok: true },
    });
    expect((await call('/health/live')).statusCode).toBe(200);
    const docs = await call('/docs');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    // Signed with the loaded key: a request without a token is refused as such, not as a failure.
    const sessions = await call('/api/sessions');
    expect(sessions.statusCode).toBe(401);
    expect(process.env.JWT_SECRET).toBe('k'.repeat(48));

    // Never a redirect (it would carry the key to another host and drop Authorization): an error
    // naming the public stream URL.
    const stream = await call('/api/public/portal/prt_1/stream', 'key=abc');
    expect(stream.statusCode).toBe(404);
    expect(stream.headers.location).toBeUndefined();
    expect(json(stream).error.message).toContain(
      'https://streams.example.test/api/public/portal/prt_1/stream ',
    );
    expect(stream.body).not.toContain('key=abc');
  });

  it('Secrets Manager unreachable: JSON 503 SERVICE_UNAVAILABLE on every route, /health names it, and it recovers', async () => {
    const secret = await sm().send(
      new CreateSecretCommand({ Name: `jwt-${Date.now()}`, SecretString: 'r'.repeat(48) }),
    );
    const reachable = must(
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER,
      'process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER',
    );
    delete process.env.JWT_SECRET;
    process.env.JWT_SECRET_ARN = must(secret.ARN, 'secret.ARN');
    // Nothing listens here.
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = `http://127.0.0.1:${await freePort()}`;
    const call = await freshHandler();

    for (const path of ['/api/sessions', '/docs', '/openapi.json', '/api/auth/token', '/no/such/route']) {
      const r = await call(path);
      expect(r.statusCode, path).toBe(503);
      expect(r.headers['content-type'], path).toContain('application/json');
      expect(r.headers['retry-after'], path).toBe('5');
      expect(json(r), path).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
      });
    }
    // The reason is logged, with the request id.
    expect(errorLogs.length).toBeGreaterThanOrEqual(5);
    const [fields, message] = errorLogs[0] as [{ err: Error; requestId: string; path: string }, string];
    expect(message).toBe('secrets could not be loaded');
    expect(fields.requestId).toBeTruthy();
    expect(String(fields.err)).toMatch(/ECONNREFUSED|connect/i);

    const health = await call('/health');
    expect(health.statusCode).toBe(503);
    expect(json(health)).toMatchObject({
      success: false,
      checks: {
        secrets: { ok: false, error: expect.any(String) },
        dynamodb: { ok: true },
        s3: { ok: true },
        sqs: { ok: true },
      },
    });
    expect((await call('/health/live')).statusCode).toBe(200);

    // A failed load is not kept: once Secrets Manager answers, so does every route.
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = reachable;
    expect((await call('/api/sessions')).statusCode).toBe(401);
    expect((await call('/health')).statusCode).toBe(200);
  });

  it('an unreadable secret: 503, and neither the answer nor the log holds its value', async () => {
    const value = 'sk-live-DO-NOT-LEAK-0123456789';
    const keys = await sm().send(new CreateSecretCommand({ Name: `ai-${Date.now()}`, SecretString: value }));
    process.env.AI_KEYS_SECRET_ARN = must(keys.ARN, 'keys.ARN');
    const call = await freshHandler();

    const r = await call('/api/sessions');
    expect(r.statusCode).toBe(503);
    expect(json(r).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(r.body).not.toContain(value);
    expect(errorLogs).toHaveLength(1);
    const logged = JSON.stringify(errorLogs, (_k, v) =>
      v instanceof Error ? { message: v.message, stack: v.stack, cause: String(v.cause) } : v,
    );
    expect(logged).toContain('AI_KEYS_SECRET_ARN');
    expect(logged).not.toContain(value);
    expect(logged).not.toContain('DO-NOT-LEAK');
  });

  it('with the edge origin key: only requests through the distribution are served; /health answers anyway', async () => {
    const key = 'e'.repeat(48);
    const secret = await sm().send(
      new CreateSecretCommand({ Name: `edge-${Date.now()}`, SecretString: key }),
    );
    process.env.EDGE_ORIGIN_KEY_ARN = must(secret.ARN, 'secret.ARN');
    const call = await freshHandler();

    // Straight to API Gateway's own address: refused, whatever the client claims to be.
    const direct = await call('/api/sessions', '', { 'x-viewer-address': '203.0.113.9' });
    expect(direct.statusCode).toBe(403);
    expect(json(direct).error).toEqual({
      code: 'FORBIDDEN',
      message: expect.stringContaining('public address'),
    });
    // Through CloudFront (its key sent): served (a missing token is the next refusal).
    const viaEdge = await call('/api/sessions', '', { 'x-service-origin-key': key });
    expect(viaEdge.statusCode).toBe(401);
    expect((await call('/health/live')).statusCode).toBe(200);
  });
});
