import { describe, expect, it } from 'vitest';
import { adminToken, baseUrl, newTenant, readySession } from '../support/client.ts';

/** A raw request: these tests are about bodies the JSON client would never send. */
async function raw(path: string, token: string | undefined, body: string | undefined, contentType?: string) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: {
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

describe('bodies of the wrong kind', () => {
  it('answers 4xx with the error shape on every JSON route, whatever the body and content type', async () => {
    const t = await newTenant();
    const admin = await adminToken();
    const s = await readySession(t.api);
    const routes: Array<[string, string | undefined]> = [
      ['/api/auth/token', undefined],
      ['/api/admin/tenants', admin],
      [`/api/admin/tenants/${t.id}/keys`, admin],
      ['/api/sessions', t.token],
      ['/api/messages/send', t.token],
      ['/api/messages/reaction', t.token],
      ['/api/webhook/config', t.token],
      ['/api/templates', t.token],
      ['/api/sessions/pin', t.token],
      ['/api/sessions/status', t.token],
      ['/api/sessions/groups', t.token],
      [`/api/sessions/usage/${s.sessionId}`, t.token],
    ];
    for (const [path, token] of routes) {
      // What `curl -d '"hello"'` sends (a form content type), no content type, and plain text.
      for (const contentType of ['application/x-www-form-urlencoded', undefined, 'text/plain']) {
        const r = await raw(path, token, '"hello"', contentType);
        expect.soft(r.status, `${path} with ${contentType ?? 'no content type'}`).toBe(415);
        expect.soft(r.body.error?.message, path).toMatch(/takes application\/json/);
      }
      const bare = await raw(path, token, '"hello"', 'application/json');
      expect.soft(bare.status, `${path} with a bare JSON string`).toBe(400);
      expect.soft(bare.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    }
    // The Cloud-API-compatible path answers in its own error shape.
    const cloud = await raw(`/api/messages/${s.mobid}/messages`, t.token, '"hello"', 'text/plain');
    expect(cloud.status).toBe(415);
    expect(cloud.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
  });

  it('tells a JSON caller of upload-send that the route takes multipart/form-data', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    for (const path of ['/api/messages/upload-send', `/api/messages/${s.mobid}/upload-send`]) {
      const r = await raw(
        path,
        t.token,
        JSON.stringify({ sessionId: s.sessionId, to: '919800000001' }),
        'application/json',
      );
      expect(r.status, path).toBe(415);
      expect(r.body).toEqual({
        success: false,
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'this route takes multipart/form-data, not application/json',
        },
      });
    }
  });

  it('still takes an API key in the header with no body at all', async () => {
    const t = await newTenant();
    const r = await fetch(`${baseUrl()}/api/auth/token`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey },
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { token?: unknown }).token).toEqual(expect.any(String));
  });
});

describe('refusals before the body is read', () => {
  it('a near-limit body refused by auth or scope still gets its answer, and the connection stays usable', async () => {
    const t = await newTenant('early refusal');
    const body = JSON.stringify({ text: 'x'.repeat(1024 * 1024 - 100) });
    // Routes whose own validators never read the body for a caller without the right scope.
    for (const path of ['/api/admin/export/contacts', '/api/admin/export/groups', '/api/admin/tenants']) {
      const res = await fetch(`${baseUrl()}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
      expect((await fetch(`${baseUrl()}/health`)).status).toBe(200);
    }
  });
});

describe('hostile JSON (each of these answered 500 before)', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('refuses nesting 10,000 deep, a lone surrogate and NUL with 400 on every JSON route', async () => {
    const t = await newTenant('hostile json');
    const s = await readySession(t.api);
    const cases: Array<[string, string, string]> = [
      ['/api/v1/chatbot/brain', `{"sessionId":"${s.sessionId}","brainData":${deep(10_000)}}`, 'nested'],
      ['/api/chatbot/brain', `{"brainData":${deep(10_000)}}`, 'nested'],
      ['/api/v1/chatbot/intents', `{"intents":${deep(10_000)}}`, 'nested'],
      ['/api/chatbot/intents', `{"intents":${deep(10_000)}}`, 'nested'],
      ['/api/v1/payments/link', '{"amount":10,"customerName":"Ra\\ud800vi"}', 'valid Unicode'],
      ['/api/v1/tts', '{"text":"hello\\u0000-f/etc/passwd"}', 'NUL'],
      [
        '/api/messages/send',
        `{"sessionId":"${s.sessionId}","to":"919800000001","text":"a\\udc00"}`,
        'valid Unicode',
      ],
    ];
    for (const [path, body, why] of cases) {
      const r = await raw(path, t.token, body, 'application/json');
      expect.soft(r.status, path).toBe(400);
      expect
        .soft(r.body.error, path)
        .toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(why) });
    }
    // The export settings take PUT.
    const res = await fetch(`${baseUrl()}/api/sessions/contacts/export/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: `{"sqltable":${deep(10_000)}}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
    // Nothing of it was sent or counted.
    expect((await t.api.get(`/api/sessions/usage/${s.mobid}`)).body.usage).toBe(0);
  });

  it('still takes text in any script, emoji pairs included', async () => {
    const t = await newTenant('good unicode');
    const r = await raw(
      '/api/v1/payments/link',
      t.token,
      '{"amount":10,"customerName":"रवि \\ud83d\\ude00"}',
      'application/json',
    );
    // No payee configured: the body passed the checks and reached the route.
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('PAYMENT_NOT_CONFIGURED');
  });
});
