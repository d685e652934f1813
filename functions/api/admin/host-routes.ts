import { createRoute, z } from '@hono/zod-openapi';
import { env } from '#shared/config/env';
import { liveHosts } from '#shared/hosts/registry';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';

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

const hostsRoute = createRoute({
  method: 'get',
  path: '/hosts',
  summary: 'The live connection hosts and the shards each holds, from their heartbeats (admin only)',
  tags: ['admin'],
  security: bearer,
  responses: {
    200: json(z.object({ success: z.literal(true), shardCount: z.number().int(), hosts: z.array(Host) })),
    ...errorResponses,
  },
});

/** Mounted under `/api/admin` (admin scope checked there). */
export function adminHostRoutes() {
  const r = router();
  r.openapi(hostsRoute, async (c) => {
    const hosts = (await liveHosts()).map(({ expiresAtMs: _e, ...h }) => ({
      ...h,
      full: h.full ?? false,
      busy: h.busy ?? false,
    }));
    // The units of ownership the hosts share (LEASE_SHARDS), not the command queues.
    return c.json({ success: true as const, shardCount: env().LEASE_SHARDS, hosts }, 200);
  });
  return r;
}
