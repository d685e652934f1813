import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok, StringList } from '#shared/http/schemas';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

const Lead = z
  .object({
    phone_number: z.string().openapi({ description: 'Digits with country code', example: '919876543210' }),
    formatted_number: z.string().openapi({ example: '+91 98765 43210' }),
    name: z.string().openapi({ description: 'The name the network gave; empty when none is known' }),
    session_id: z.string(),
    extracted_at: z.string().openapi({ description: 'When this scrape ran (ISO 8601)' }),
  })
  .openapi('ScrapedLead');

export const leadsRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['leads'],
  security: bearer,
  summary: 'Lead scrape: the deduplicated contacts of some or all sessions (docs/exports.md)',
  request: {
    query: z.object({
      sessionIds: StringList.optional().openapi({
        type: 'string',
        description: 'Comma-separated session ids, mobids or numbers; default: every active session',
      }),
      mobile: z.string().max(40).optional().openapi({ description: 'One connected number: only its leads' }),
    }),
  },
  responses: {
    200: ok({ totalScraped: z.number().int(), targetSessions: z.array(z.string()), contacts: z.array(Lead) }),
    ...errorResponses,
  },
});
