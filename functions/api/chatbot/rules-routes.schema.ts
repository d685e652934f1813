import { z } from '@hono/zod-openapi';
import { MAX_PATTERN_LENGTH } from '#shared/chatbot/regex-limits';
import { REPLY_TYPES, TRIGGER_TYPES } from '#shared/chatbot/rules';
import { ok, routesTagged } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';

/**
 * The definitions of the routes of rules-routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('chatbot');

const MAX_RESPONSE_LENGTH = 4096;

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

export const listRulesRoute = route({
  method: 'get',
  path: '/rules',
  middleware: [requireAuth] as const,
  summary: 'Rules stored under one session key (or `*`); every rule of the tenant without `mobid`',
  request: { query: z.object({ mobid: RuleKey.optional() }) },
  responses: { 200: ok({ rules: z.array(ChatbotRuleSchema) }) },
});

export const saveRuleRoute = route({
  method: 'post',
  path: '/rules',
  middleware: [requireAuth] as const,
  summary: 'Create a rule (a regex the linear-time engine refuses is a 400 naming `keyword`)',
  request: { body: { content: { 'application/json': { schema: RuleInput } } } },
  responses: { 201: ok({ message: z.string(), rule: ChatbotRuleSchema }) },
});

export const deleteRuleRoute = route({
  method: 'delete',
  path: '/rules/{id}',
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
  responses: { 200: ok({ message: z.string(), id: z.string() }) },
});
