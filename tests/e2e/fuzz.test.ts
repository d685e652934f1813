import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, api, baseUrl, newTenant, readySession } from '../support/client.ts';
import { must } from '../support/must.ts';

/**
 * Property-based: every operation /openapi.json documents, sent malformed bodies (every JSON type,
 * nulls, huge and odd strings, deep nesting, `__proto__` keys, wrong content types), odd path
 * parameters and odd query values, as two tenants, an admin and nobody. Never a 5xx; every 4xx in
 * the JSON error shape; tenant B never gets a 2xx on tenant A's ids; a body over the 1 MiB limit is
 * 413 on every operation; the service healthy after. A failure prints fast-check's seed: rerun it
 * with FUZZ_SEED=<seed>.
 */
const TOTAL_REQUESTS = 1_100;
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** The service's limit on a non-multipart body (functions/api/app.ts); a few bodies go just over it. */
const JSON_LIMIT = 1024 * 1024;

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: string[];
  hasBody: boolean;
}

const CLOUD = /\/api\/messages\/\{phoneNumberId\}\/(messages|media)$|^\/api\/media\/\{mediaId\}/;
const STREAM = /\/(extracted-)?stream$/;

const odd = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '../..',
    '%00',
    '%2e%2e%2f',
    '__proto__',
    'constructor',
    'null',
    '-1',
    '1e999',
  ),
  fc.constantFrom('😀', 'മലയാളം', '\u202e', 'a'.repeat(300), '<script>', "' OR 1=1 --", '{"a":1}'),
  fc.integer().map(String),
);

const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: [deep(depth - 1)] });
const body = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'),
      deep(200),
      null,
      'hello',
      [],
      { sessionId: null, to: null, text: null },
      { text: 'x'.repeat(70_000) },
      { text: 'x'.repeat(JSON_LIMIT) },
    ),
  },
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  undefined,
);

let ops: Operation[] = [];
const who: Record<string, string | undefined> = {};
const aIds: string[] = [];

beforeAll(async () => {
  const doc = (await api().get('/openapi.json')).body as {
    paths: Record<
      string,
      Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>
    >;
  };
  ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      hasBody: Boolean(op.requestBody),
    })),
  );
  const a = await newTenant('fuzz A');
  const b = await newTenant('fuzz B');
  const s = await readySession(a.api);
  aIds.push(s.sessionId, s.mobid, s.mobile_number, a.id);
  who.a = a.token;
  who.b = b.token;
  who.admin = await adminToken();
  who.none = undefined;
}, 60_000);

describe('every documented operation', () => {
  it(`answers malformed input with a 4xx in the error shape, never a 5xx (${TOTAL_REQUESTS}+ requests)`, async () => {
    expect(ops.length).toBeGreaterThan(30);
    let sent = 0;
    const runs = Math.ceil(TOTAL_REQUESTS / ops.length);
    for (const op of ops) {
      const params = fc.record(
        Object.fromEntries(op.pathParams.map((p) => [p, fc.oneof(odd, fc.constantFrom(...aIds))])),
      );
      const query = fc.dictionary(fc.constantFrom('x', ...op.query), odd, { maxKeys: 4 });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('a', 'b', 'admin', 'none'),
          params,
          query,
          body,
          contentType,
          async (caller, p, q, b, ct) => {
            const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
              encodeURIComponent(String(p[name])),
            );
            const search = new URLSearchParams(q).toString();
            const token = who[caller];
            const withBody = op.hasBody || op.method !== 'GET';
            const payload =
              withBody && op.method !== 'GET' && op.method !== 'DELETE' ? JSON.stringify(b) : undefined;
            const res = await fetch(`${baseUrl()}${path}${search ? `?${search}` : ''}`, {
              method: op.method,
              headers: {
                ...(token ? { authorization: `Bearer ${token}` } : {}),
                ...(withBody && ct ? { 'content-type': ct } : {}),
              },
              body: payload,
              signal: AbortSignal.timeout(15_000),
            });
            sent++;
            const label = `${op.method} ${path} as ${caller} (${ct ?? 'no content type'}) → ${res.status}`;
            if (STREAM.test(op.path) && res.status === 200) {
              await res.body?.cancel();
              return;
            }
            const text = await res.text();
            expect(res.status, label).toBeLessThan(500);
            // Judged before routing or auth: the limit holds for every caller and every path.
            if (payload && payload.length > JSON_LIMIT && !ct?.startsWith('multipart/')) {
              expect(res.status, `${label}: a body over ${JSON_LIMIT} bytes`).toBe(413);
            }
            const usesAIds = Object.values(p).some((v) => aIds.includes(String(v)));
            if (caller === 'b' && usesAIds && !STREAM.test(op.path) && !/live-messages/.test(op.path)) {
              expect(res.status, `${label}: tenant B on tenant A's ids`).toBeGreaterThanOrEqual(400);
            }
            if (res.status >= 400) {
              const json = JSON.parse(text);
              const ours = {
                success: false,
                error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) },
              };
              // The Cloud-API-compatible paths (messages, media) answer in the Cloud API's shape once the path matches.
              const cloud = {
                error: expect.objectContaining({ code: expect.any(Number), message: expect.any(String) }),
              };
              expect(json, label).toEqual(CLOUD.test(op.path) && json.success === undefined ? cloud : ours);
            }
          },
        ),
        { numRuns: runs, seed: SEED, endOnFailure: true },
      );
    }
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS);

    // Whatever the seed: one body just over the limit to every operation that takes one.
    const over = JSON.stringify({ text: 'x'.repeat(JSON_LIMIT) });
    for (const op of ops.filter((o) => o.hasBody)) {
      const path = op.path.replace(/\{(\w+)\}/g, () => must(aIds[0], 'aIds[0]'));
      const res = await fetch(`${baseUrl()}${path}`, {
        method: op.method,
        headers: { authorization: `Bearer ${who.b}`, 'content-type': 'application/json' },
        body: over,
      });
      expect(res.status, `${op.method} ${path} with ${over.length} bytes`).toBe(413);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    }
    const health = await api().get('/health');
    expect(health.status).toBe(200);
    expect(health.body.success).toBe(true);
  }, 240_000);
});
