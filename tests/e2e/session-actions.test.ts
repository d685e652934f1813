import { describe, expect, it } from 'vitest';
import { api, commandFinished, newTenant, readySession, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const outbox = async (sessionId: string) =>
  (await api().get(`/_sim/outbox?sessionId=${sessionId}`)).body.messages;

describe('session actions', () => {
  it('reacts, pins, posts a status and manages a group, each with a final result', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);

    const react = await t.api.post('/api/messages/reaction', {
      sessionId: s.mobid,
      to: '+91 98000 00001',
      messageId: 'ABC123',
      emoji: '👍',
    });
    expect(react.status).toBe(202);
    expect(react.body).toEqual({
      success: true,
      commandId: expect.stringMatching(/^cmd_/),
      status: 'pending',
    });
    expect((await commandFinished(t.api, react.body.commandId)).status).toBe('succeeded');

    const pin = await t.api.post('/api/sessions/pin', {
      sessionId: s.sessionId,
      chatId: '919800000001',
      pin: true,
    });
    expect((await commandFinished(t.api, pin.body.commandId)).status).toBe('succeeded');

    const story = await t.api.post('/api/sessions/status', {
      sessionId: s.sessionId,
      type: 'text',
      content: 'Open today',
      backgroundColor: '#25D366',
    });
    expect((await commandFinished(t.api, story.body.commandId)).status).toBe('succeeded');

    const created = await t.api.post('/api/sessions/groups', {
      sessionId: s.sessionId,
      action: 'create',
      subject: 'Clinic staff',
      participants: ['919800000002', '919800000003'],
    });
    const result = await commandFinished(t.api, created.body.commandId);
    expect(result.status).toBe('succeeded');
    expect(result.result.groupId).toMatch(/^\d+@g\.us$/);

    const add = await t.api.post('/api/sessions/groups', {
      sessionId: s.sessionId,
      action: 'add_participants',
      groupId: result.result.groupId,
      participants: ['919800000004'],
    });
    expect((await commandFinished(t.api, add.body.commandId)).status).toBe('succeeded');

    const sent = await outbox(s.sessionId);
    expect(sent.map((m: { type: string }) => m.type)).toEqual([
      'reaction',
      'pin',
      'status-text',
      'group-create',
      'group-add_participants',
    ]);
    expect(sent[0]).toMatchObject({ to: '919800000001', text: '👍' });
  });

  it('validates bodies, naming the field', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const cases: Array<[string, object, string]> = [
      ['/api/messages/reaction', { sessionId: s.sessionId, to: '919800000001', emoji: '👍' }, 'messageId'],
      ['/api/sessions/pin', { sessionId: s.sessionId, chatId: '919800000001', pin: 'yes' }, 'pin'],
      [
        '/api/sessions/status',
        { sessionId: s.sessionId, type: 'text', content: 'x', backgroundColor: 'green' },
        'backgroundColor',
      ],
      ['/api/sessions/status', { sessionId: s.sessionId, type: 'image', content: 'not a url' }, 'content'],
      ['/api/sessions/groups', { sessionId: s.sessionId, action: 'explode', groupId: '1@g.us' }, 'action'],
      [
        '/api/sessions/groups',
        { sessionId: s.sessionId, action: 'add_participants', groupId: '1@g.us' },
        'participants',
      ],
      ['/api/sessions/groups', { sessionId: s.sessionId, action: 'subject', subject: 'x' }, 'groupId'],
    ];
    for (const [path, body, field] of cases) {
      const r = await t.api.post(path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.error.message.startsWith(field), r.body.error.message).toBe(true);
    }
  });

  it('answers 404 for unknown sessions and commands, also across tenants', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const s = await readySession(a.api);
    const r = await a.api.post('/api/sessions/pin', {
      sessionId: 'qr_1_00000000',
      chatId: '919800000001',
      pin: true,
    });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('SESSION_NOT_FOUND');
    const pin = await a.api.post('/api/sessions/pin', {
      sessionId: s.sessionId,
      chatId: '919800000001',
      pin: false,
    });
    expect((await b.api.get(`/api/commands/${pin.body.commandId}`)).status).toBe(404);
    expect(
      (await b.api.post('/api/sessions/pin', { sessionId: s.sessionId, chatId: '919800000001', pin: true }))
        .status,
    ).toBe(404);
    expect((await a.api.get('/api/commands/cmd_nope')).status).toBe(404);
  });
});

describe('session action results on the webhook', () => {
  it('posts command.result with the final status', async () => {
    const hook = await startReceiver();
    try {
      const t = await newTenant();
      await webhookTo(t.api, hook);
      const s = await readySession(t.api);
      const pin = await t.api.post('/api/sessions/pin', {
        sessionId: s.sessionId,
        chatId: '919800000001',
        pin: true,
      });
      const result = await waitFor(
        async () => hook.of('command.result')[0]?.json,
        15_000,
        'command.result webhook',
      );
      expect(result).toMatchObject({
        event: 'command.result',
        session_id: s.sessionId,
        mobid: s.mobid,
        command_id: pin.body.commandId,
        kind: 'pin',
        status: 'succeeded',
        error: null,
      });
    } finally {
      await hook.close();
    }
  });
});

describe('reactions through the Cloud-API-compatible path', () => {
  it('are recorded like every session action: the answered id finds the result, and command.result is posted', async () => {
    const hook = await startReceiver();
    try {
      const t = await newTenant();
      await webhookTo(t.api, hook);
      const s = await readySession(t.api);
      const sent = await t.api.post(`/api/messages/${s.mobid}/messages`, {
        messaging_product: 'whatsapp',
        to: '919800000002',
        type: 'reaction',
        reaction: { message_id: 'wamid.3EB0AAAAAAAAAAAAAAAA', emoji: '🎉' },
      });
      expect(sent.status).toBe(200);
      const wamid: string = sent.body.messages[0].id;
      expect(wamid).toMatch(/^wamid\.cmd_/);
      const done = await commandFinished(t.api, wamid);
      expect(done).toMatchObject({ kind: 'react', sessionId: s.sessionId, status: 'succeeded' });
      const result = await waitFor(
        async () => hook.of('command.result').find((r) => r.json.command_id === done.id)?.json,
        15_000,
        'command.result webhook for the reaction',
      );
      expect(result).toMatchObject({ event: 'command.result', kind: 'react', status: 'succeeded' });
    } finally {
      await hook.close();
    }
  });
});

describe('status stories with media', () => {
  it('fetches the image through the host (guarded) and posts its bytes; a missing image fails the command', async () => {
    const png = fixtures.png();
    const media = await mediaServer({ 'story.png': png });
    try {
      const t = await newTenant();
      const s = await readySession(t.api);
      const ok = await t.api.post('/api/sessions/status', {
        sessionId: s.sessionId,
        type: 'image',
        content: media.url('story.png'),
      });
      expect((await commandFinished(t.api, ok.body.commandId)).status).toBe('succeeded');
      const [story] = await outbox(s.sessionId);
      expect(story).toMatchObject({
        type: 'status-image',
        to: 'status@broadcast',
        sha256: png.sha256,
        mimetype: 'image/png',
      });

      const missing = await t.api.post('/api/sessions/status', {
        sessionId: s.sessionId,
        type: 'image',
        content: media.url('gone.png'),
      });
      const failed = await commandFinished(t.api, missing.body.commandId);
      expect(failed.status).toBe('failed');
      expect(failed.error).toContain('404');
    } finally {
      await media.close();
    }
  });
});
