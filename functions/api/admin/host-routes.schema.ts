import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok } from '#shared/http/schemas';

/**
 * The definitions of the routes of host-routes.ts: their schemas, which also make /openapi.json.
 */

const Host = z.object({
  hostId: z.string(),
  pid: z.number().int().optional().openapi({ description: 'Process id, in local mode only' }),
  shards: z.array(z.number().int()),
  sessions: z.number().int().openapi({ description: 'Sessions running on the host' }),
  ready: z.number().int().openapi({ description: 'Of those, the ones whose link is READY' }),
  rssBytes: z.number().int(),
  full: z.boolean().openapi({ description: 'Past its memory budget: it takes no more shards' }),
  busy: z
    .boolean()
    .openapi({ description: 'Taking, resuming or handing over shards: its sessions still move' }),
  startedAt: z.string(),
});

export const hostsRoute = createRoute({
  method: 'get',
  path: '/hosts',
  summary: 'The live connection hosts and the shards each holds, from their heartbeats (admin only)',
  tags: ['admin'],
  security: bearer,
  responses: {
    200: ok({ shardCount: z.number().int(), hosts: z.array(Host) }),
    ...errorResponses,
  },
});
