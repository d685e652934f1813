import { createRoute, z } from '@hono/zod-openapi';
import { MAX_PATTERN_LENGTH } from '#shared/chatbot/regex-limits';
import { deleteRule, listRules, putRule, REPLY_TYPES, TRIGGER_TYPES } from '#shared/chatbot/rules';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';

const tags = ['chatbot'];
export const MAX_RESPONSE_LENGTH = 4096;

/** A session key (phone number, session id, mobid, profile name, `global`) or `*` for all sessions. */
const RuleKey = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^#\s]+$/, 'a session key has no `#` and no spaces')
  .openapi({
    description: 'session key (phone, session id, mobid, profile, `global`) or `*` for all',
    example: '*',
  });

const ChatbotRuleSchema = z
  .object({
    id: z.string().openapi({ example: 'rule_1763865600000123456' }),
    mobid: z.string(),
    triggerType: z.enum(TRIGGER_TYPES),
    keyword: z.string(),
    replyType: z.enum(REPLY_TYPES),
    response: z.string(),
    createdAt: z.string(),
  })
  .openapi('ChatbotRule');

const RuleInput = z
  .object({
    mobid: RuleKey,
    triggerType: z.enum(TRIGGER_TYPES),
    keyword: z
      .string()
      .max(MAX_PATTERN_LENGTH)
      .openapi({ description: 'text to match, or a regular expression (RE2 syntax) for `regex`' }),
    replyType: z.enum(REPLY_TYPES),
    response: z
      .string()
      .max(MAX_RESPONSE_LENGTH)
      .openapi({ description: 'the reply (`text`), or extra instructions for the model (`ai_response`)' }),
  })
  .superRefine((v, ctx) => {
    if (v.triggerType !== 'ai_fallback' && v.keyword.trim().length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['keyword'],
        message: `must not be empty for ${v.triggerType} rules`,
      });
    if (v.replyType === 'text' && v.response.trim().length === 0)
      ctx.addIssue({ code: 'custom', path: ['response'], message: 'must not be empty for text replies' });
  });

/** `/rules`: static and AI rules per session key (mounted under `/api/v1/chatbot`). */
export function rulesRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/rules',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'Rules stored under one session key (or `*`); every rule of the tenant without `mobid`',
      request: { query: z.object({ mobid: RuleKey.optional() }) },
      responses: {
        200: json(z.object({ success: z.literal(true), rules: z.array(ChatbotRuleSchema) })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { mobid } = c.req.valid('query');
      return c.json({ success: true as const, rules: await listRules(c.get('auth').tenant, mobid) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/rules',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'Create a rule (a regex the linear-time engine refuses is a 400 naming `keyword`)',
      request: { body: { content: { 'application/json': { schema: RuleInput } } } },
      responses: {
        201: json(z.object({ success: z.literal(true), message: z.string(), rule: ChatbotRuleSchema })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const rule = await putRule(c.get('auth').tenant, c.req.valid('json'));
      return c.json({ success: true as const, message: `rule ${rule.id} created`, rule }, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/rules/{id}',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'Delete a rule by id',
      request: {
        params: z.object({
          id: z
            .string()
            .min(1)
            .max(100)
            .openapi({ param: { name: 'id', in: 'path' }, example: 'rule_1763865600000123456' }),
        }),
      },
      responses: {
        200: json(z.object({ success: z.literal(true), message: z.string(), id: z.string() })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      if (!(await deleteRule(c.get('auth').tenant, id))) throw new NotFoundError(`rule "${id}" not found`);
      return c.json({ success: true as const, message: `rule ${id} deleted`, id }, 200);
    },
  );
  return r;
}
