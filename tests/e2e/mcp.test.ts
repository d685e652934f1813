import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { api, baseUrl, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';
import { outboxWith } from '../support/outbox.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** The official SDK's client over the streamable HTTP transport, with a tenant's bearer token. */
async function mcpClient(token?: string) {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/mcp`), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A tool's JSON answer (the tools answer one text item holding JSON). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text: string }>;
  return {
    isError: r.isError === true,
    text: must(content[0], 'content[0]').text,
    json: () => JSON.parse(must(content[0], 'content[0]').text),
  };
}

describe('MCP server', () => {
  it('lists its tools, sends a message that reaches the network, reads it back, and is refused another tenant', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = await mcpClient(t.token);

    const tools = (await client.listTools()).tools.map((x) => x.name).sort();
    expect(tools).toEqual(
      [
        'check_numbers',
        'get_session_qr',
        'list_chats',
        'list_sessions',
        'read_messages',
        'send_media',
        'send_text',
      ].sort(),
    );

    const sessions = (await call(client, 'list_sessions')).json().sessions;
    expect(sessions).toEqual([
      expect.objectContaining({ sessionId: s.sessionId, mobid: s.mobid, status: 'READY' }),
    ]);

    const sent = await call(client, 'send_text', {
      session: s.mobid,
      to: '+91 98117 00003',
      text: 'hello from MCP',
    });
    expect(sent.isError, sent.text).toBe(false);
    const { messageId } = sent.json();
    expect(messageId).toMatch(/^3EB0[0-9A-F]{16}$/);
    const [out] = await outboxWith(s.sessionId, 1);
    expect(out).toMatchObject({ id: messageId, type: 'text', text: 'hello from MCP' });

    const read = (
      await call(client, 'read_messages', { session: s.sessionId, chatId: '919811700003' })
    ).json();
    expect(read.messages).toEqual([
      expect.objectContaining({ id: messageId, message: 'hello from MCP', direction: 'outbound' }),
    ]);
    const chats = (await call(client, 'list_chats', { session: s.sessionId })).json().chats;
    expect(chats.map((m: { id: string }) => m.id)).toContain(messageId);

    const qr = (await call(client, 'get_session_qr', { session: s.sessionId })).json();
    expect(qr).toEqual({ sessionId: s.sessionId, status: 'READY', qr: null, pairingCode: null });

    const deliveries = await client.readResource({ uri: 'webhooks://deliveries' });
    expect(JSON.parse((deliveries.contents[0] as { text: string }).text)).toEqual({ deliveries: [] });

    // Bad input is refused by the tool's schema.
    const bad = await call(client, 'send_text', { session: s.sessionId, to: '12', text: 'x' });
    expect(bad.isError).toBe(true);

    // Another tenant's client sees none of it.
    const other = await newTenant();
    const intruder = await mcpClient(other.token);
    expect((await call(intruder, 'list_sessions')).json().sessions).toEqual([]);
    for (const [tool, args] of [
      ['send_text', { session: s.mobid, to: '919811700003', text: 'not yours' }],
      ['read_messages', { session: s.sessionId, chatId: '919811700003' }],
      ['get_session_qr', { session: s.sessionId }],
      ['check_numbers', { session: s.sessionId, numbers: ['919811700003'] }],
    ] as const) {
      const refused = await call(intruder, tool, args);
      expect(refused.isError, tool).toBe(true);
      expect(refused.text).toMatch(/^SESSION_NOT_FOUND: /);
    }
    expect(await outboxWith(s.sessionId, 1)).toHaveLength(1);
  });

  it('checks numbers on the network, and shows webhook deliveries as a resource', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = await mcpClient(t.token);
    const off = '919811700099';
    expect((await api().post('/_sim/numbers', { unregistered: [off] })).status).toBe(200);
    const checked = await call(client, 'check_numbers', {
      session: s.mobid,
      numbers: ['+91 98117 00004', off],
    });
    expect(checked.isError, checked.text).toBe(false);
    expect(checked.json()).toMatchObject({
      sessionId: s.sessionId,
      status: 'done',
      commandId: expect.any(String),
      numbers: [
        { number: '919811700004', exists: true, jid: '919811700004@s.whatsapp.net' },
        { number: off, exists: false, jid: null },
      ],
    });
    expect((await call(client, 'check_numbers', { session: s.sessionId, numbers: [] })).isError).toBe(true);

    const recv = await startReceiver();
    try {
      // A token in the URL's query string is a secret: shown masked, as the REST delivery log shows it.
      const cfg = await t.api.post('/api/webhook/config', {
        webhookUrl: `${recv.url}?token=hook-query-secret`,
        secretToken: 'whsec-mcp-0123456789',
        approvedDomains: '127.0.0.1',
        enabled: true,
      });
      expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
      const id = await simInbound({ sessionId: s.sessionId, from: '919811700005', text: 'hello hook' });
      await waitFor(async () => recv.of('message.inbound', id)[0], 15_000, 'the webhook');
      const shown = await waitFor(
        async () => {
          const r = await client.readResource({ uri: 'webhooks://deliveries' });
          const { deliveries } = JSON.parse((r.contents[0] as { text: string }).text);
          const d = deliveries.find(
            (x: { payload?: { message_id?: string } }) => x.payload?.message_id === id,
          );
          return d?.status === 'delivered' ? d : undefined;
        },
        15_000,
        'the delivery in the resource',
      );
      expect(shown).toMatchObject({
        event: 'message.inbound',
        status: 'delivered',
        url: `${recv.url}?token=********`,
      });
      expect(shown.payload.content.text).toBe('hello hook');
      expect(JSON.stringify(shown)).not.toContain('claimToken');
      expect(JSON.stringify(shown)).not.toContain('hook-query-secret');
      // Another tenant's resource holds none of it.
      const other = await mcpClient((await newTenant()).token);
      const theirs = await other.readResource({ uri: 'webhooks://deliveries' });
      expect(JSON.parse((theirs.contents[0] as { text: string }).text)).toEqual({ deliveries: [] });
    } finally {
      await recv.close();
    }
  });

  it('sends once per idempotency key: a retry answers the first answer, other arguments are refused', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = await mcpClient(t.token);
    const args = { session: s.mobid, to: '919811700004', text: 'only once', idempotencyKey: 'mcp-retry-1' };

    const first = await call(client, 'send_text', args);
    expect(first.isError, first.text).toBe(false);
    const again = await call(client, 'send_text', args);
    expect(again.isError, again.text).toBe(false);
    expect(again.json()).toEqual({ ...first.json(), replayed: true });
    expect(first.json().replayed).toBeUndefined();

    const reused = await call(client, 'send_text', { ...args, text: 'something else' });
    expect(reused.isError).toBe(true);
    expect(reused.text).toMatch(/^IDEMPOTENCY_KEY_REUSED: /);
    // The key is the tenant's across paths: the REST send with it is another request, refused too.
    const rest = await t.api.post(
      '/api/messages/send',
      { sessionId: s.mobid, to: '919811700004', text: 'only once' },
      { 'idempotency-key': 'mcp-retry-1' },
    );
    expect(rest.status).toBe(422);

    const media = { session: s.mobid, to: '919811700004', type: 'image', url: 'https://example.com/a.png' };
    const bad = await call(client, 'send_media', { ...media, idempotencyKey: 'has space' });
    expect(bad.isError).toBe(true);

    const [out] = await outboxWith(s.sessionId, 1);
    expect(out).toMatchObject({ id: first.json().messageId, text: 'only once' });
    expect(await outboxWith(s.sessionId, 1)).toHaveLength(1);
  });

  it('refuses a client without a valid bearer token, and a GET for a stream', async () => {
    await expect(mcpClient()).rejects.toThrow(/UNAUTHORIZED/);
    await expect(mcpClient('not-a-token')).rejects.toThrow(/UNAUTHORIZED/);
    // Stateless: no server-to-client stream to open.
    const t = await newTenant();
    const get = await fetch(`${baseUrl()}/mcp`, {
      headers: { authorization: `Bearer ${t.token}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
  });
});
