import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { router } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { requireAuth } from '../auth/middleware.ts';
import { registerResources, registerTools } from './tools.ts';

/**
 * `/mcp`: the Model Context Protocol over its streamable HTTP transport (docs/mcp.md), behind the
 * same bearer token as the REST API. Stateless: every POST builds a server for the caller's tenant,
 * answers with JSON and is done, so any Lambda instance or local process can take any request and
 * nothing about a client is kept between requests.
 */
export function mcpRoutes() {
  const r = router();
  r.use('*', requireAuth);
  // No server-to-client stream (GET) and no session to end (DELETE): a held-open stream would tie up
  // a Lambda instance or a local connection for nothing, and the spec lets a server answer 405.
  r.on(['GET', 'DELETE'], '/', (c) =>
    c.json(errorBody('VALIDATION_FAILED', 'this MCP server is stateless: POST only'), 405, { allow: 'POST' }),
  );
  r.post('/', async (c) => {
    const server = new McpServer({ name: 'session-manager', version: '1.0.0' });
    const caller = { tenantId: c.get('auth').tenant, requestId: c.get('requestId') };
    registerTools(server, caller);
    registerResources(server, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  return r;
}
