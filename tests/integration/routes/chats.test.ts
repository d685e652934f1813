import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectInvalid,
  expectNotFound,
  type Tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/** /api/chats in-process (functions/api/chats/). */
describe('chats routes', () => {
  let a: Tenant;
  let b: Tenant;
  let sessionId: string;
  beforeAll(async () => {
    ({ a, b, sessionId } = await twoTenantsAndASession('chats'));
  });

  it("lists a new session's chats (none); a chat it never had is a 404", async () => {
    const chats = await a.api.get(`/api/chats?sessionId=${sessionId}`);
    expect(chats.status, JSON.stringify(chats.body)).toBe(200);
    expect(chats.body).toEqual({ success: true, chats: [], next: null });
    // A chat the session never had is a 404 that names the chat.
    const msgs = await a.api.get(`/api/chats/15550001111/messages?sessionId=${sessionId}`);
    expectNotFound(msgs);
    expect(msgs.body.error.message).toMatch(/^chatId: /);
  });

  it('names the bad query field', async () => {
    expectInvalid(await a.api.get('/api/chats'), 'sessionId');
    expectInvalid(await a.api.get(`/api/chats?sessionId=${sessionId}&limit=0`), 'limit');
    expectInvalid(await a.api.get(`/api/chats?sessionId=${sessionId}&limit=abc`), 'limit');
    expectInvalid(await a.api.get('/api/chats/15550001111/messages'), 'sessionId');
  });

  it("answers 404 for another tenant's session", async () => {
    expectNotFound(await b.api.get(`/api/chats?sessionId=${sessionId}`));
    expectNotFound(await b.api.get(`/api/chats/15550001111/messages?sessionId=${sessionId}`));
  });
});
