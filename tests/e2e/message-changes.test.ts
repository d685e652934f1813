import { afterEach, describe, expect, it } from 'vitest';
import { getMessage } from '#shared/messages/repository';
import { api, commandFinished, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { hookedReceiver } from '../support/listeners.ts';
import { outbox } from '../support/outbox.ts';
import { openStream } from '../support/sse-client.ts';
import type { startReceiver } from '../support/webhook-receiver.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setup() {
  const t = await newTenant('changes');
  const s = await readySession(t.api);
  const recv = await hookedReceiver(t.api, closers);
  return { t, s, recv };
}

async function sent(
  t: Awaited<ReturnType<typeof setup>>['t'],
  sessionId: string,
  to: string,
  message: string,
) {
  const r = await t.api.post('/api/messages/send', { sessionId, to, message });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const id = r.body.messageId as string;
  await waitFor(async () => (await getMessage(t.id, sessionId, id))?.status === 'sent', 10_000, 'sent');
  return id;
}

const hooks = (recv: Awaited<ReturnType<typeof startReceiver>>, event: string, id: string) =>
  recv.requests.filter((r) => r.json?.event === event && r.json.message_id === id).map((r) => r.json);

describe('POST /api/messages/edit and /delete', () => {
  it('edits and revokes a sent message on the network; history, webhook and stream follow', async () => {
    const { t, s, recv } = await setup();
    const live = await openStream(t.portalId);
    closers.push(live.close);
    await live.connected;
    const to = '919811830001';
    const id = await sent(t, s.sessionId, to, 'price is 800');

    const edit = await t.api.post('/api/messages/edit', {
      sessionId: s.mobid,
      messageId: id,
      text: 'price is 750',
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(202);
    expect(await commandFinished(t.api, edit.body.commandId)).toMatchObject({ status: 'succeeded' });
    expect((await outbox(s.sessionId)).find((e) => e.type === 'edit')).toMatchObject({
      to,
      quotedId: id,
      text: 'price is 750',
    });
    await waitFor(async () => (await getMessage(t.id, s.sessionId, id))?.editedAt, 10_000, 'edit stored');
    expect((await getMessage(t.id, s.sessionId, id))?.text).toBe('price is 750');
    const [edited] = await waitFor(
      async () => {
        const e = hooks(recv, 'message.edited', id);
        return e.length ? e : undefined;
      },
      10_000,
      'message.edited webhook',
    );
    expect(edited).toMatchObject({
      session_id: s.sessionId,
      chat_id: to,
      from_me: true,
      text: 'price is 750',
      for_everyone: null,
    });
    const page = await t.api.get(`/api/chats/${to}/messages?sessionId=${s.sessionId}`);
    expect(page.body.messages[0]).toMatchObject({ id, text: 'price is 750' });

    const del = await t.api.post('/api/messages/delete', {
      sessionId: s.sessionId,
      messageId: id,
      forEveryone: true,
    });
    expect(del.status, JSON.stringify(del.body)).toBe(202);
    expect(await commandFinished(t.api, del.body.commandId)).toMatchObject({ status: 'succeeded' });
    expect((await outbox(s.sessionId)).find((e) => e.type === 'revoke')).toMatchObject({ to, quotedId: id });
    await waitFor(
      async () => (await getMessage(t.id, s.sessionId, id))?.deletedAt,
      10_000,
      'deletion stored',
    );
    expect((await getMessage(t.id, s.sessionId, id))?.text).toBeUndefined();
    await waitFor(
      async () => hooks(recv, 'message.deleted', id).length > 0,
      10_000,
      'message.deleted webhook',
    );
    expect(hooks(recv, 'message.deleted', id)[0]).toMatchObject({
      from_me: true,
      text: null,
      for_everyone: true,
    });
    const streamed = await waitFor(
      async () => {
        const kinds = live.events.filter((e) => e.json.message_id === id).map((e) => e.json.event);
        return kinds.includes('message.deleted') ? kinds : undefined;
      },
      10_000,
      'stream events',
    );
    expect(streamed).toEqual(['message.edited', 'message.deleted']);
    // A deleted message cannot be edited or deleted again.
    const again = await t.api.post('/api/messages/edit', {
      sessionId: s.sessionId,
      messageId: id,
      text: 'x',
    });
    expect(again.status).toBe(409);
  });

  it("a contact's edit and deletion arrive as message.edited / message.deleted and update history", async () => {
    const { t, s, recv } = await setup();
    const from = '919811830002';
    const id = await simInbound({ sessionId: s.sessionId, from, text: 'my address is 12 MG Road' });
    await waitFor(() => getMessage(t.id, s.sessionId, id), 10_000, 'stored');
    expect(
      (
        await api().post('/_sim/change', {
          sessionId: s.sessionId,
          from,
          messageId: id,
          change: 'edited',
          text: 'my address is 14 MG Road',
        })
      ).status,
    ).toBe(200);
    await waitFor(async () => hooks(recv, 'message.edited', id).length > 0, 10_000, 'edited webhook');
    expect(hooks(recv, 'message.edited', id)[0]).toMatchObject({
      chat_id: from,
      from_me: false,
      text: 'my address is 14 MG Road',
    });
    expect((await getMessage(t.id, s.sessionId, id))?.text).toBe('my address is 14 MG Road');

    expect(
      (await api().post('/_sim/change', { sessionId: s.sessionId, from, messageId: id, change: 'deleted' }))
        .status,
    ).toBe(200);
    await waitFor(async () => hooks(recv, 'message.deleted', id).length > 0, 10_000, 'deleted webhook');
    const m = await getMessage(t.id, s.sessionId, id);
    expect(m?.deletedAt).toBeGreaterThan(0);
    expect(m?.text).toBeUndefined();
  });

  it('a received message is deleted from history only; refusals and isolation', async () => {
    const [{ t, s, recv }, other] = await Promise.all([setup(), newTenant()]);
    const from = '919811830003';
    const inbound = await simInbound({ sessionId: s.sessionId, from, text: 'hello' });
    await waitFor(() => getMessage(t.id, s.sessionId, inbound), 10_000, 'stored');
    // Not ours: cannot be edited or revoked for everyone.
    const editTheirs = await t.api.post('/api/messages/edit', {
      sessionId: s.sessionId,
      messageId: inbound,
      text: 'x',
    });
    expect(editTheirs.status).toBe(409);
    expect(editTheirs.body.error.message).toMatch(/^messageId: /);
    const revokeTheirs = await t.api.post('/api/messages/delete', {
      sessionId: s.sessionId,
      messageId: inbound,
      forEveryone: true,
    });
    expect(revokeTheirs.status).toBe(409);
    // Another tenant sees neither the session nor the message.
    const os = await readySession(other.api);
    for (const [path, body] of [
      ['/api/messages/edit', { sessionId: s.sessionId, messageId: inbound, text: 'x' }],
      ['/api/messages/delete', { sessionId: s.sessionId, messageId: inbound }],
    ] as const) {
      const r = await other.api.post(path, body);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('SESSION_NOT_FOUND');
    }
    const viaOwn = await other.api.post('/api/messages/delete', {
      sessionId: os.sessionId,
      messageId: inbound,
    });
    expect(viaOwn.status).toBe(404);
    expect(viaOwn.body.error.message).toMatch(/^messageId: /);
    // Bad input names the field.
    for (const [path, body, field] of [
      ['/api/messages/edit', { sessionId: s.sessionId, messageId: inbound }, /^text: /],
      ['/api/messages/edit', { sessionId: s.sessionId, text: 'x' }, /^messageId: /],
      [
        '/api/messages/delete',
        { sessionId: s.sessionId, messageId: inbound, forEveryone: 'yes' },
        /^forEveryone: /,
      ],
    ] as const) {
      const r = await t.api.post(path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(field);
    }

    const del = await t.api.post('/api/messages/delete', { sessionId: s.sessionId, messageId: inbound });
    expect(del.status).toBe(202);
    expect(await commandFinished(t.api, del.body.commandId)).toMatchObject({ status: 'succeeded' });
    await waitFor(async () => hooks(recv, 'message.deleted', inbound).length > 0, 10_000, 'deleted webhook');
    expect(hooks(recv, 'message.deleted', inbound)[0]).toMatchObject({ from_me: false, for_everyone: false });
    expect((await getMessage(t.id, s.sessionId, inbound))?.text).toBeUndefined();
    expect((await outbox(s.sessionId)).filter((e) => e.type === 'revoke')).toEqual([]);
  });
});
