import { describe, expect, it } from 'vitest';
import { caller, tenant, twoTenantsAndASession } from '../../support/in-process.ts';

/** /mcp in-process (functions/api/mcp/): JSON-RPC over the streamable HTTP transport, per tenant. */
describe('mcp route', () => {
  const rpc = (method: string, params: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 1,
    method,
    params,
  });
  const accept = { accept: 'application/json, text/event-stream' };

  it("lists the tools, and a tool sees only the caller's tenant", async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('mcp');
    const tools = await a.api.post('/mcp', rpc('tools/list'), accept);
    expect(tools.status, JSON.stringify(tools.body)).toBe(200);
    expect(tools.body.result.tools.map((t: { name: string }) => t.name)).toContain('list_sessions');
    const listOf = async (api: typeof a.api) => {
      const r = await api.post('/mcp', rpc('tools/call', { name: 'list_sessions', arguments: {} }), accept);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return JSON.parse(r.body.result.content[0].text).sessions as Array<{ sessionId: string }>;
    };
    expect((await listOf(a.api)).map((s) => s.sessionId)).toContain(sessionId);
    expect(await listOf(b.api)).toEqual([]);
  });

  it('refuses a caller without a token, and GET (stateless: POST only)', async () => {
    expect((await caller().post('/mcp', rpc('tools/list'), accept)).status).toBe(401);
    const t = await tenant('mcp-get');
    const get = await t.api.get('/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
