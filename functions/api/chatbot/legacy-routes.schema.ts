import { z } from '@hono/zod-openapi';
import { Brain } from '#shared/chatbot/brain-schema';
import { ok, routesTagged } from '#shared/http/schemas';
import { saveIntentsRequest, TenantField } from './intents-routes.schema.ts';
import { PromptText, RemoteUrl, SessionKeyInput } from './knowledge-common.ts';

/**
 * The definitions of the routes of legacy-routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('chatbot (older paths)');

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

export const brainRoute = route({
  method: 'get',
  path: '/brain',
  summary: 'The brain for a session key (`sessionId`) and profile (`tenant`), falling back to global',
  request: {
    query: z.object({
      sessionId: SessionKeyInput.optional(),
      tenant: TenantField,
    }),
  },
  responses: {
    200: ok({ sessionId: z.string(), resolvedFrom: z.string(), brain: z.record(z.string(), z.unknown()) }),
  },
});

export const saveBrainRoute = route({
  method: 'post',
  path: '/brain',
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
    200: ok({
      sessionId: z.string(),
      profile: z.string().optional(),
      version: z.string(),
      updatedAt: z.string(),
    }),
  },
});

export const savePromptRoute = route({
  method: 'post',
  path: '/prompt',
  summary: 'Save the persona prompt of a session key (`sessionId` or `sessionKey`, default global)',
  request: { body: { content: { 'application/json': { schema: PromptBody } } } },
  responses: { 200: ok({ sessionId: z.string(), version: z.string(), updatedAt: z.string() }) },
});

export const saveIntentsRoute = route({
  summary: "Replace the tenant's intents file; a bad field is a 400 naming its path",
  ...saveIntentsRequest,
});
