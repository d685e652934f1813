import { createRoute, z } from '@hono/zod-openapi';
import { putPrompt, resolvePrompt } from '#shared/chatbot/knowledge';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import {
  DocumentMetaSchema,
  fetchRemotePrompt,
  keysFor,
  oneOf,
  PromptText,
  RemoteUrl,
  SessionKeyInput,
} from './knowledge-common.ts';

const tags = ['chatbot'];

const PromptBody = z
  .object({
    sessionKey: SessionKeyInput.default('global'),
    prompt: PromptText.optional().openapi({ description: 'persona instructions, at most 32 KiB' }),
    promptUrl: RemoteUrl.optional().openapi({ description: 'a URL answering the prompt as text, read now' }),
  })
  .superRefine(oneOf('prompt', 'promptUrl'));

/** `/prompt`: the persona prompt per session key (mounted under `/api/v1/chatbot`). */
export function promptRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/prompt',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'The persona prompt that applies to a session key (falling back to the profile, then global)',
      request: { query: z.object({ sessionKey: SessionKeyInput.default('global') }) },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            resolvedFrom: z.string(),
            prompt: z.string(),
            promptUrl: z.string().optional(),
            ...DocumentMetaSchema,
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { sessionKey } = c.req.valid('query');
      const hit = await resolvePrompt(tenant, await keysFor(tenant, sessionKey));
      if (!hit) throw new NotFoundError(`no prompt for ${sessionKey} and no global prompt`);
      const { url, key: _k, ...meta } = hit.meta;
      return c.json(
        {
          success: true as const,
          sessionKey,
          resolvedFrom: hit.key,
          prompt: hit.prompt,
          ...(url ? { promptUrl: url } : {}),
          ...meta,
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
      middleware: [requireAuth] as const,
      summary: 'Save a persona prompt for a session key: given directly or read now from promptUrl',
      request: { body: { content: { 'application/json': { schema: PromptBody } } } },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            promptUrl: z.string().optional(),
            ...DocumentMetaSchema,
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const body = c.req.valid('json');
      const prompt = body.prompt ?? (await fetchRemotePrompt(body.promptUrl!));
      const { key, url, ...meta } = await putPrompt(tenant, body.sessionKey, prompt, { url: body.promptUrl });
      return c.json(
        { success: true as const, sessionKey: key, ...(url ? { promptUrl: url } : {}), ...meta },
        200,
      );
    },
  );

  return r;
}
