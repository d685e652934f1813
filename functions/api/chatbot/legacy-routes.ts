import { createRoute, z } from '@hono/zod-openapi';
import { Brain } from '#shared/chatbot/brain-schema';
import {
  isProfileName,
  putBrain,
  putPrompt,
  resolveBrain,
  setTenantProfile,
} from '#shared/chatbot/knowledge';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { IntentsBody, IntentsSaved, saveIntents, TenantField } from './intents-routes.ts';
import { fetchRemotePrompt, keysFor, PromptText, RemoteUrl, SessionKeyInput } from './knowledge-common.ts';

const tags = ['chatbot (older paths)'];

const PromptBody = z
  .object({
    sessionId: SessionKeyInput.optional(),
    sessionKey: SessionKeyInput.optional(),
    prompt: PromptText.optional(),
    promptUrl: RemoteUrl.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.prompt === undefined) === (v.promptUrl === undefined))
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'give either prompt or promptUrl' });
  });

/**
 * The older chatbot paths under `/api/chatbot` (interface spec, "Older chatbot paths"), on the same
 * store as `/api/v1/chatbot`. `tenant` names a profile folder: it sets the tenant's profile and
 * takes part in the brain lookup.
 */
export function legacyChatbotRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(
    createRoute({
      method: 'get',
      path: '/brain',
      tags,
      security: bearer,
      summary: 'The brain for a session key (`sessionId`) and profile (`tenant`), falling back to global',
      request: {
        query: z.object({
          sessionId: SessionKeyInput.optional(),
          tenant: TenantField,
        }),
      },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionId: z.string(),
            resolvedFrom: z.string(),
            brain: z.record(z.string(), z.unknown()),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const auth = c.get('auth');
      const { sessionId, tenant } = c.req.valid('query');
      const profile = isProfileName(tenant) ? tenant : undefined;
      const key = sessionId ?? profile ?? GLOBAL_KEY;
      const hit = await resolveBrain(auth.tenant, await keysFor(auth.tenant, key, profile));
      if (!hit) throw new NotFoundError(`no brain for ${key} and no global brain`);
      return c.json({ success: true as const, sessionId: key, resolvedFrom: hit.key, brain: hit.brain }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/brain',
      tags,
      security: bearer,
      summary: 'Save the brain of a session key; `tenant` (a profile name) sets the tenant profile',
      request: {
        body: {
          content: {
            'application/json': {
              schema: z.object({ sessionId: SessionKeyInput, tenant: TenantField, brain: Brain }),
            },
          },
        },
      },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionId: z.string(),
            profile: z.string().optional(),
            version: z.string(),
            updatedAt: z.string(),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const auth = c.get('auth');
      const { sessionId, tenant, brain } = c.req.valid('json');
      const saved = await putBrain(auth.tenant, sessionId, brain);
      const profile = isProfileName(tenant) ? tenant : undefined;
      if (profile) await setTenantProfile(auth.tenant, profile);
      return c.json(
        {
          success: true as const,
          sessionId,
          ...(profile ? { profile } : {}),
          version: saved.version,
          updatedAt: saved.updatedAt,
        },
        200,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/prompt',
      tags,
      security: bearer,
      summary: 'Save the persona prompt of a session key (`sessionId` or `sessionKey`, default global)',
      request: { body: { content: { 'application/json': { schema: PromptBody } } } },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionId: z.string(),
            version: z.string(),
            updatedAt: z.string(),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const auth = c.get('auth');
      const body = c.req.valid('json');
      const key = body.sessionId ?? body.sessionKey ?? GLOBAL_KEY;
      const prompt = body.prompt ?? (await fetchRemotePrompt(body.promptUrl ?? ''));
      const saved = await putPrompt(auth.tenant, key, prompt, { url: body.promptUrl });
      return c.json(
        { success: true as const, sessionId: key, version: saved.version, updatedAt: saved.updatedAt },
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
      summary: "Replace the tenant's intents file; a bad field is a 400 naming its path",
      request: { body: { content: { 'application/json': { schema: IntentsBody } } } },
      responses: { 200: json(IntentsSaved), ...errorResponses },
    }),
    async (c) => c.json(await saveIntents(c.get('auth').tenant, c.req.valid('json')), 200),
  );

  return r;
}
