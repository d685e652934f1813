import { describe, expect, it } from 'vitest';
import { baseUrl, newTenant, readySession } from '../support/client.ts';
import { outbox, outboxWith } from '../support/outbox.ts';

const key = () => `key-${Math.random().toString(36).slice(2)}`;
const idem = (k: string) => ({ 'Idempotency-Key': k });

/** Waits long enough for a second send to have reached the outbox, then answers the outbox. */
async function settledOutbox(sessionId: string, atLeast: number) {
  await outboxWith(sessionId, atLeast);
  await new Promise((r) => setTimeout(r, 1500));
  return outbox(sessionId);
}

describe('Idempotency-Key on sends', () => {
  it('a retry with the same key and body answers the first answer and sends nothing again', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const k = key();
    const body = { sessionId: s.sessionId, to: '919876543210', message: 'once only' };
    const first = await t.api.post('/api/messages/send', body, idem(k));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const retry = await t.api.post(
      '/api/messages/send',
      { message: 'once only', to: '919876543210', sessionId: s.sessionId },
      idem(k),
    );
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const out = await settledOutbox(s.sessionId, 1);
    expect(out.map((m) => m.id)).toEqual([first.body.messageId]);
  });

  it('two concurrent requests with the same key send once and answer the same', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const k = key();
    const body = { sessionId: s.sessionId, to: '919876543210', message: 'raced' };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.api.post('/api/messages/send', body, idem(k))),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(202);
    const ids = new Set(answers.map((a) => a.body.messageId));
    expect(ids.size).toBe(1);

    const out = await settledOutbox(s.sessionId, 1);
    expect(out.map((m) => m.id)).toEqual([...ids]);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and sends nothing', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const k = key();
    const first = await t.api.post(
      '/api/messages/send',
      { sessionId: s.sessionId, to: '919876543210', message: 'a' },
      idem(k),
    );
    expect(first.status).toBe(202);
    const other = await t.api.post(
      '/api/messages/send',
      { sessionId: s.sessionId, to: '919876543210', message: 'b' },
      idem(k),
    );
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const out = await settledOutbox(s.sessionId, 1);
    expect(out.map((m) => m.text)).toEqual(['a']);
  });

  it('keys are per tenant: the same key in another tenant is its own request', async () => {
    const [a, b] = await Promise.all([newTenant(), newTenant()]);
    const [sa, sb] = await Promise.all([readySession(a.api), readySession(b.api)]);
    const k = key();
    const ra = await a.api.post(
      '/api/messages/send',
      { sessionId: sa.sessionId, to: '919876543210', message: 'from a' },
      idem(k),
    );
    const rb = await b.api.post(
      '/api/messages/send',
      { sessionId: sb.sessionId, to: '919876543210', message: 'from b' },
      idem(k),
    );
    expect(ra.status).toBe(202);
    expect(rb.status, JSON.stringify(rb.body)).toBe(202);
    expect(rb.body.messageId).not.toBe(ra.body.messageId);
    await outboxWith(sa.sessionId, 1);
    await outboxWith(sb.sessionId, 1);
  });

  it('a failed send frees its key: the retry sends', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const k = key();
    const body = { sessionId: s.sessionId, to: '919876543210', type: 'template', text: 'later' };
    const missing = await t.api.post('/api/messages/send', body, idem(k));
    expect(missing.status).toBe(404);
    expect((await t.api.post('/api/templates', { name: 'later', body: 'Now it exists' })).status).toBe(201);
    const retry = await t.api.post('/api/messages/send', body, idem(k));
    expect(retry.status, JSON.stringify(retry.body)).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const [sent] = await outboxWith(s.sessionId, 1);
    expect(sent).toMatchObject({ id: retry.body.messageId, text: 'Now it exists' });
  });

  it('a malformed key is 400 naming the header', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const r = await t.api.post(
      '/api/messages/send',
      { sessionId: s.sessionId, to: '919876543210', message: 'x' },
      idem('has space'),
    );
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/idempotency-key/i);
  });

  it('upload-send: a retried upload is stored and sent once', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const k = key();
    const post = async () => {
      const form = new FormData();
      form.append('sessionId', s.sessionId);
      form.append('to', '919876543210');
      form.append('caption', 'the file');
      form.append('file', new Blob([Buffer.from('name,phone\nA,1\n')], { type: 'text/csv' }), 'leads.csv');
      const res = await fetch(`${baseUrl()}/api/messages/upload-send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, ...idem(k) },
        body: form,
      });
      return {
        status: res.status,
        body: (await res.json()) as { messageId: string },
        replayed: res.headers.get('idempotent-replayed'),
      };
    };
    const [one, two] = await Promise.all([post(), post()]);
    expect(one.status, JSON.stringify(one.body)).toBe(202);
    expect(two.status, JSON.stringify(two.body)).toBe(202);
    expect(two.body.messageId).toBe(one.body.messageId);
    const third = await post();
    expect(third).toMatchObject({ status: 202, replayed: 'true', body: one.body });
    const out = await settledOutbox(s.sessionId, 1);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ type: 'document', caption: 'the file' });
  });

  it('Cloud API send: a retry answers the same wamid, another body is 422 in the Cloud shape', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const k = key();
    const path = `/api/messages/${s.mobid}/messages`;
    const body = {
      messaging_product: 'whatsapp',
      to: '919876543210',
      type: 'text',
      text: { body: 'cloud once' },
    };
    const [first, second] = await Promise.all([
      t.api.post(path, body, idem(k)),
      t.api.post(path, body, idem(k)),
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toEqual(first.body);
    const replay = await t.api.post(path, body, idem(k));
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const other = await t.api.post(path, { ...body, text: { body: 'changed' } }, idem(k));
    expect(other.status).toBe(422);
    expect(other.body.error).toMatchObject({ code: 100 });
    expect(other.body.error.error_data.details).toMatch(/Idempotency-Key/);

    const out = await settledOutbox(s.sessionId, 1);
    expect(out.map((m) => m.text)).toEqual(['cloud once']);
  });

  it('every send path documents the header in /openapi.json', async () => {
    const t = await newTenant();
    const doc = (await t.api.get('/openapi.json')).body;
    for (const path of [
      '/api/messages/send',
      '/api/messages/upload-send',
      '/api/messages/{phoneNumberId}/upload-send',
      '/api/messages/{phoneNumberId}/messages',
    ]) {
      const params = doc.paths[path].post.parameters as Array<{ name: string; in: string }>;
      expect(params, path).toContainEqual(expect.objectContaining({ name: 'idempotency-key', in: 'header' }));
    }
  });
});
