import { describe, expect, it } from 'vitest';
import { expectNotFound, twoTenantsAndASession } from '../../support/in-process.ts';

/** /api/commands in-process (functions/api/commands/): a command accepted by a session action. */
describe('commands routes', () => {
  it("answers its own command in the Command shape, 404 for an unknown or another tenant's", async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('commands');
    const accepted = await a.api.post(`/api/sessions/${sessionId}/reconnect`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body).toMatchObject({ success: true, status: 'pending', sessionId });
    const id = accepted.body.commandId as string;
    const got = await a.api.get(`/api/commands/${id}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.command).toMatchObject({ id, kind: 'reconnect', sessionId });
    expect(typeof got.body.command.status).toBe('string');
    expectNotFound(await b.api.get(`/api/commands/${id}`));
    expectNotFound(await a.api.get('/api/commands/cmd_nobody'));
  });
});
