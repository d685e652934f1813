import { createRoute, z } from '@hono/zod-openapi';
import { Brain } from '#shared/chatbot/brain-schema';
import { putBrain, resolveBrain } from '#shared/chatbot/knowledge';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import {
  DocumentMetaSchema,
  fetchRemoteBrain,
  keysFor,
  oneOf,
  RemoteUrl,
  SessionKeyInput,
} from './knowledge-common.ts';

const tags = ['chatbot'];

const BrainBody = z
  .object({
    sessionKey: SessionKeyInput.default('global'),
    brainData: Brain.optional().openapi({ description: 'the brain itself (docs/chatbot.md)' }),
    brainUrl: RemoteUrl.optional().openapi({ description: 'a URL answering the brain as JSON, read now' }),
  })
  .superRefine(oneOf('brainData', 'brainUrl'));

/** `/brain`: the knowledge base per session key (mounted under `/api/v1/chatbot`). */
export function brainRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/brain',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'The brain that applies to a session key (falling back to the profile, then global)',
      request: { query: z.object({ sessionKey: SessionKeyInput.default('global') }) },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            resolvedFrom: z.string().openapi({ description: 'the key the brain is stored under' }),
            brain: z.record(z.string(), z.unknown()),
            brainUrl: z.string().optional(),
            ...DocumentMetaSchema,
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { sessionKey } = c.req.valid('query');
      const hit = await resolveBrain(tenant, await keysFor(tenant, sessionKey));
      if (!hit) throw new NotFoundError(`no brain for ${sessionKey} and no global brain`);
      const { url, key: _k, ...meta } = hit.meta;
      return c.json(
        {
          success: true as const,
          sessionKey,
          resolvedFrom: hit.key,
          brain: hit.brain,
          ...(url ? { brainUrl: url } : {}),
          ...meta,
        },
        200,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/brain',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'Save a brain for a session key: given directly (brainData) or read now from brainUrl',
      request: { body: { content: { 'application/json': { schema: BrainBody } } } },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            brainUrl: z.string().optional(),
            ...DocumentMetaSchema,
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const body = c.req.valid('json');
      const brain = body.brainData ?? (await fetchRemoteBrain(body.brainUrl!));
      const { key, url, ...meta } = await putBrain(tenant, body.sessionKey, brain, { url: body.brainUrl });
      return c.json(
        { success: true as const, sessionKey: key, ...(url ? { brainUrl: url } : {}), ...meta },
        200,
      );
    },
  );

  return r;
}
