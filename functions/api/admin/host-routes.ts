import { env } from '#shared/config/env';
import { liveHosts } from '#shared/hosts/registry';
import { router } from '#shared/http/context';
import { hostsRoute } from './host-routes.schema.ts';

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
