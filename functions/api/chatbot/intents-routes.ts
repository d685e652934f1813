import { createRoute, z } from '@hono/zod-openapi';
import { Intents } from '#shared/chatbot/intents-schema';
import { getIntentsRecord, isProfileName, putIntents, setTenantProfile } from '#shared/chatbot/knowledge';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';

const tags = ['chatbot'];

export const TenantField = z.string().trim().max(50).optional().openapi({
  description:
    '`clinic`, `appliances`, `ecommerce` or `salon` sets the tenant profile; other values are accepted and ignored',
});

export const IntentsBody = z.object({
  tenant: TenantField,
  intents: Intents.openapi({ description: 'the intents file (docs/chatbot.md)' }),
});

export const IntentsSaved = z.object({
  success: z.literal(true),
  version: z.string().openapi({ description: 'content hash of the stored intents' }),
  count: z.number().int(),
  profile: z.string().optional(),
  updatedAt: z.string(),
});

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

  r.openapi(
    createRoute({
      method: 'get',
      path: '/intents',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: "The tenant's intents file, with its version",
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            version: z.string(),
            updatedAt: z.string(),
            intents: z.record(z.string(), z.unknown()),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const rec = await getIntentsRecord(c.get('auth').tenant);
      if (!rec) throw new NotFoundError('no intents saved for this tenant');
      return c.json(
        { success: true as const, version: rec.version, updatedAt: rec.updatedAt, intents: rec.intents },
        200,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/intents',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: "Replace the tenant's intents file",
      request: { body: { content: { 'application/json': { schema: IntentsBody } } } },
      responses: { 200: json(IntentsSaved), ...errorResponses },
    }),
    async (c) => c.json(await saveIntents(c.get('auth').tenant, c.req.valid('json')), 200),
  );

  return r;
}
