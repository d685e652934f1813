import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api, baseUrl, newTenant } from '../support/client.ts';

const run = promisify(execFile);

type Operation = { operationId?: string; security?: Array<Record<string, string[]>>; responses: object };
type Document = { paths: Record<string, Record<string, Operation>> };
/** What tests/e2e/typed-client/program.ts answers. */
type Tour = (
  baseUrl: string,
  apiKey: string,
) => Promise<{
  status: string;
  messageId: string;
  history: Array<{ id: string; text?: string | null }>;
  notFound?: string;
}>;

/**
 * Findings of Redocly's recommended rules we keep, each with its reason. Matched by rule and the
 * JSON pointer of the finding, so a new one of the same rule still fails.
 */
const ACCEPTED: Array<{ rule: string; pointer: string; why: string }> = [
  ...['qr', 'reconnect'].map((action) => ({
    rule: 'no-ambiguous-paths',
    pointer: `#/paths/~1api~1sessions~1{sessionId}~1${action}`,
    why:
      '`/api/sessions/usage/{identifier}` would match if a session were called "usage": fixed words are ' +
      'routed before `/{sessionId}` (functions/api/sessions-prefix.ts) and session ids are `qr_<ms>_<hex>`; ' +
      'renaming the route would break existing clients.',
  })),
  {
    rule: 'no-ambiguous-paths',
    pointer: '#/paths/~1api~1sessions~1{sessionId}~1history',
    why:
      'as for `qr` and `reconnect`: `/api/sessions/usage/{identifier}` is routed before `/{sessionId}` ' +
      '(functions/api/sessions-prefix.ts) and no session id is "usage"; a session\'s history belongs under it.',
  },
  {
    rule: 'operation-2xx-response',
    pointer: '#/paths/~1links~1{token}/get/responses',
    why:
      'a link answers 302 to a short-lived presigned address, by design: Lambda answers are capped near ' +
      '6 MB, and media is larger (docs/api.md, "Links"); its failures are 403/404 JSON.',
  },
];

const accepted = (p: NormalizedProblem) =>
  ACCEPTED.some((a) => a.rule === p.ruleId && p.location.some((l) => l.pointer === a.pointer));

let doc: Document;
let source: string;
beforeAll(async () => {
  const r = await fetch(`${baseUrl()}/openapi.json`);
  expect(r.status).toBe(200);
  source = await r.text();
  doc = JSON.parse(source);
});

/** Fails the test if anything in `fn` reaches for the network: linting and generating work offline. */
async function offline<T>(fn: () => Promise<T>): Promise<T> {
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    throw new Error(`no network here: ${String(input)}`);
  });
  try {
    const out = await fn();
    expect(spy).not.toHaveBeenCalled();
    return out;
  } finally {
    spy.mockRestore();
  }
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

describe('/openapi.json for generators', () => {
  it("passes Redocly's recommended rules, offline, with no finding but the accepted ones", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await offline(() => lintFromString({ source, absoluteRef: 'openapi.json', config }));
    const found = problems
      .filter((p) => !accepted(p))
      .map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    // Each accepted finding is still there: an entry that no longer matches is removed.
    for (const a of ACCEPTED)
      expect(
        problems.some((p) => p.ruleId === a.rule && p.location.some((l) => l.pointer === a.pointer)),
      ).toBe(true);
  });

  it('names every operation in camelCase, once, and the names do not move', () => {
    const ids = operations().map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    const id = (method: string, path: string) => doc.paths[path]?.[method]?.operationId;
    expect(id('post', '/api/sessions')).toBe('postSessions');
    expect(id('get', '/api/sessions/{sessionId}/qr')).toBe('getSessionsBySessionIdQr');
    expect(id('post', '/api/messages/send')).toBe('postMessagesSend');
    expect(id('get', '/view/messages/v1')).toBe('getViewMessagesV1');
  });

  it('answers 401 without credentials on every operation it says needs them', async () => {
    const guarded = operations().filter(
      ({ op }) => op.security?.length && !op.security.some((s) => !Object.keys(s).length),
    );
    expect(guarded.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const { path, method } of guarded) {
      const url = `${baseUrl()}${path.replace(/\{[^}]+\}/g, 'x')}`;
      const body = ['post', 'put', 'patch'].includes(method) ? '{}' : undefined;
      const r = await fetch(url, {
        method: method.toUpperCase(),
        body,
        headers: body ? { 'content-type': 'application/json' } : {},
      });
      await r.body?.cancel();
      if (r.status !== 401) wrong.push(`${method.toUpperCase()} ${path}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('declares the public operations public', async () => {
    const pub = operations()
      .filter(({ op }) => op.security?.length === 0)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(pub).toEqual(
      expect.arrayContaining([
        'GET /health',
        'GET /openapi.json',
        'GET /api/public/portal/{portal_id}/stream',
      ]),
    );
    const health = await api().get('/health');
    expect(health.status).toBe(200);
  });
});

describe('a client generated with openapi-typescript', () => {
  const dir = resolve(import.meta.dirname, 'typed-client');

  it('type-checks a small program against it, and the program works against the running service', async () => {
    // defaultNonNullable off: a field with a default (a send's `type`) stays optional in a request.
    const ast = await offline(() =>
      openapiTS(JSON.parse(source), { silent: true, defaultNonNullable: false }),
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'schema.ts'), astToString(ast));

    // The project's compiler options, on the program and the generated schema only; in a child
    // process, so this one keeps answering its sockets meanwhile.
    const tsc = resolve(import.meta.dirname, '../../node_modules/.bin/tsc');
    const checked = await run(tsc, ['-p', dir]).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(checked).toBe('');

    const tenant = await newTenant('typed client');
    // By a computed path: the project's own type-check never sees the program (its schema is generated here).
    const { tour }: { tour: Tour } = await import(join(dir, 'program.ts'));
    const seen = await tour(baseUrl(), tenant.apiKey);
    expect(seen.status).toBe('READY');
    expect(seen.history.find((m) => m.id === seen.messageId)?.text).toBe('Hello from a generated client');
    expect(seen.notFound).toBe('SESSION_NOT_FOUND');
  }, 60_000);
});
