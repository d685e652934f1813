import type { z } from '@hono/zod-openapi';
import { getIntentsRecord, isProfileName, putIntents, setTenantProfile } from '#shared/chatbot/knowledge';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { type IntentsBody, intentsRoute, saveIntentsRoute } from './intents-routes.schema.ts';

/**
 * Stores the tenant's intents. The tenant profile follows `tenant` when it is a profile name, else
 * the intents' `meta.industry` when that is one; otherwise the profile is left as it was.
 */
export async function saveIntents(tenantId: string, body: z.infer<typeof IntentsBody>) {
  const saved = await putIntents(tenantId, body.intents);
  const industry = body.intents.meta.industry?.toLowerCase();
  const profile = isProfileName(body.tenant) ? body.tenant : isProfileName(industry) ? industry : undefined;
  if (profile) await setTenantProfile(tenantId, profile);
  return {
    success: true as const,
    version: saved.version,
    count: saved.count,
    ...(profile ? { profile } : {}),
    updatedAt: saved.updatedAt,
  };
}

/** `/intents`: the tenant's intents file (mounted under `/api/v1/chatbot`). */
export function intentsRoutes() {
  const r = router();

  r.openapi(intentsRoute, async (c) => {
    const rec = await getIntentsRecord(c.get('auth').tenant);
    if (!rec) throw new NotFoundError('no intents saved for this tenant');
    return c.json(
      { success: true as const, version: rec.version, updatedAt: rec.updatedAt, intents: rec.intents },
      200,
    );
  });

  r.openapi(saveIntentsRoute, async (c) =>
    c.json(await saveIntents(c.get('auth').tenant, c.req.valid('json')), 200),
  );

  return r;
}
