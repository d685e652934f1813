import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOOPBACK } from '../../scripts/local/free-port.ts';
import { launchBrowser } from '../support/browser.ts';
import { baseUrl, newTenant, readySession, simInbound } from '../support/client.ts';
import { must } from '../support/must.ts';

/**
 * A browser page on another origin uses the service the way a customer's web app would: EventSource
 * on both streams and fetch with a bearer token, under Chromium's own CORS rules. The global setup
 * allows one origin (CORS_ORIGINS = `corsPageOrigin`); a second page server on another port is any
 * other origin.
 */

/** A blank page on its own origin: the test's script runs in it. */
async function pageServer(port: number): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>cross-origin client</title>');
  });
  await new Promise<void>((r) => server.listen(port, LOOPBACK, r));
  return { origin: `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`, server };
}

let browser: Browser;
const servers: Server[] = [];
let allowed: Page;
let denied: Page;

async function pageAt(origin: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  return page;
}

beforeAll(async () => {
  const allowedOrigin = inject('corsPageOrigin');
  const a = await pageServer(Number(new URL(allowedOrigin).port));
  const d = await pageServer(0);
  servers.push(a.server, d.server);
  expect(a.origin).toBe(allowedOrigin);
  browser = await launchBrowser();
  allowed = await pageAt(a.origin);
  denied = await pageAt(d.origin);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** Opens an EventSource in the page; its state, messages and errors are read back with `state`. */
function openEventSource(page: Page, url: string) {
  return page.evaluate((u) => {
    const w = globalThis as unknown as { es: EventSource; got: string[]; errors: number; opened: boolean };
    w.got = [];
    w.errors = 0;
    w.opened = false;
    w.es = new EventSource(u);
    w.es.onopen = () => {
      w.opened = true;
    };
    w.es.onmessage = (e) => w.got.push(e.data);
    w.es.onerror = () => {
      w.errors++;
    };
  }, url);
}
const state = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as { es: EventSource; got: string[]; errors: number; opened: boolean };
    return { readyState: w.es.readyState, got: w.got, errors: w.errors, opened: w.opened };
  });
const closeEventSource = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { es: EventSource }).es.close());

/** fetch() from the page with a bearer token (a preflighted request): its status, or the browser's refusal. */
const fetchFrom = (page: Page, url: string, token: string) =>
  page.evaluate(
    async ([u, t]: [string, string]) => {
      try {
        const r = await fetch(u, { headers: { authorization: `Bearer ${t}` } });
        return { status: r.status, requestId: r.headers.get('x-request-id') };
      } catch (err) {
        return { refused: String(err) };
      }
    },
    [url, token] as [string, string],
  );

describe('a browser page on another origin', () => {
  it('on an allowed origin: the tenant stream delivers an inbound message, the ?key= stream opens, a bearer fetch is answered', async () => {
    const t = await newTenant('cors');
    const s = await readySession(t.api);
    await openEventSource(allowed, `${baseUrl()}/api/public/portal/${t.portalId}/stream`);
    await expect.poll(async () => (await state(allowed)).opened, { timeout: 10_000 }).toBe(true);

    await simInbound({ sessionId: s.sessionId, from: '15550003333', name: 'Web', text: 'hello browser' });
    await expect.poll(async () => (await state(allowed)).got.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [first] = (await state(allowed)).got;
    expect(JSON.parse(must(first, 'first'))).toMatchObject({
      event: 'message:inbound',
      message: 'hello browser',
    });
    await closeEventSource(allowed);

    // EventSource cannot send headers: the key rides in the query, as the docs say.
    await openEventSource(allowed, `${baseUrl()}/api/v1/chatbot/extracted-stream?key=${t.apiKey}`);
    await expect.poll(async () => (await state(allowed)).opened, { timeout: 10_000 }).toBe(true);
    expect((await state(allowed)).readyState).toBe(1);
    await closeEventSource(allowed);

    // Authorization makes the browser ask first (a preflight); the page then reads the answer and
    // the headers the service exposes.
    const sessions = await fetchFrom(allowed, `${baseUrl()}/api/sessions`, t.token);
    expect(sessions).toMatchObject({ status: 200, requestId: expect.any(String) });
  });

  it('on any other origin: the browser refuses the stream and the answers (no CORS headers for it)', async () => {
    const t = await newTenant('cors-denied');
    const s = await readySession(t.api);
    await openEventSource(denied, `${baseUrl()}/api/public/portal/${t.portalId}/stream`);
    // A CORS failure fails the EventSource for good: CLOSED, no reconnect.
    await expect.poll(async () => (await state(denied)).readyState, { timeout: 10_000 }).toBe(2);
    await simInbound({ sessionId: s.sessionId, from: '15550004444', name: 'Web', text: 'not for that page' });
    const after = await state(denied);
    expect(after).toMatchObject({ opened: false, got: [] });
    expect(after.errors).toBeGreaterThan(0);

    const sessions = await fetchFrom(denied, `${baseUrl()}/api/sessions`, t.token);
    expect(sessions).toEqual({ refused: expect.stringContaining('Failed to fetch') });
  });
});

describe('preflight', () => {
  const preflight = (path: string, origin: string) =>
    fetch(`${baseUrl()}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,last-event-id',
      },
    });

  it('the API and the streams answer it for the allowed origin only', async () => {
    const origin = inject('corsPageOrigin');
    for (const path of [
      '/api/sessions',
      '/api/v1/chatbot/extracted-stream',
      '/api/public/portal/prt_x/stream',
    ]) {
      const ok = await preflight(path, origin);
      expect(ok.status, path).toBe(204);
      expect(ok.headers.get('access-control-allow-origin'), path).toBe(origin);
      expect(ok.headers.get('access-control-allow-headers'), path).toMatch(/Authorization/);
      expect(ok.headers.get('access-control-allow-headers'), path).toMatch(/Last-Event-ID/);

      const other = await preflight(path, 'http://127.0.0.1:9');
      expect(other.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});
