import { describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';

type Client = ReturnType<typeof api>;

/** The check's numbers: from the answer, or from the command's result when the API answered 202. */
async function checked(client: Client, body: Record<string, unknown>) {
  const r = await client.post('/api/contacts/check', body);
  expect([200, 202], JSON.stringify(r.body)).toContain(r.status);
  if (r.status === 200) return r.body.numbers;
  const cmd = await waitFor(
    async () => {
      const c = await client.get(`/api/commands/${r.body.commandId}`);
      return c.body.command?.status === 'succeeded' ? c.body.command : undefined;
    },
    15_000,
    'check result',
  );
  return cmd.result.numbers;
}

describe('POST /api/contacts/check', () => {
  it('answers which numbers have an account, with their ids, in the order given', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const off = '919811820002';
    const marked = await api().post('/_sim/numbers', { unregistered: [off] });
    expect(marked.status).toBe(200);
    const r = await t.api.post('/api/contacts/check', {
      sessionId: s.mobid,
      numbers: ['+91 98118-20001', off],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.numbers).toEqual([
      { input: '+91 98118-20001', number: '919811820001', exists: true, jid: '919811820001@s.whatsapp.net' },
      { input: off, number: off, exists: false, jid: null },
    ]);
    // The command's result holds the same answer.
    const cmd = await t.api.get(`/api/commands/${r.body.commandId}`);
    expect(cmd.body.command).toMatchObject({ kind: 'check', status: 'succeeded' });

    await api().post('/_sim/numbers', { registered: [off] });
    expect(await checked(t.api, { sessionId: s.sessionId, numbers: [off] })).toEqual([
      { input: off, number: off, exists: true, jid: `${off}@s.whatsapp.net` },
    ]);
  });

  it("another tenant's session is a 404; bad input a 400 naming the field", async () => {
    const [x, y] = await Promise.all([newTenant(), newTenant()]);
    const s = await readySession(x.api);
    const other = await y.api.post('/api/contacts/check', {
      sessionId: s.sessionId,
      numbers: ['919811820003'],
    });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('SESSION_NOT_FOUND');
    for (const [body, field] of [
      [{ numbers: ['919811820003'] }, /^sessionId: /],
      [{ sessionId: s.sessionId, numbers: [] }, /^numbers: /],
      [{ sessionId: s.sessionId, numbers: ['12'] }, /^numbers\.0: /],
      [
        {
          sessionId: s.sessionId,
          numbers: Array.from({ length: 51 }, (_, i) => `9198118${String(i).padStart(5, '0')}`),
        },
        /^numbers: /,
      ],
    ] as const) {
      const r = await x.api.post('/api/contacts/check', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(field);
    }
    const unauth = await api().post('/api/contacts/check', {
      sessionId: s.sessionId,
      numbers: ['919811820003'],
    });
    expect(unauth.status).toBe(401);
  });
});
