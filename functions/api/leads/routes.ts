import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json, StringList } from '#shared/http/schemas';
import { jsonEnvelopeStream, jsonStreamHeaders } from '../exports/json-stream.ts';
import { contactRows, targetSessions } from './contacts-source.ts';

const Lead = z
  .object({
    phone_number: z.string().openapi({ description: 'Digits with country code', example: '919876543210' }),
    formatted_number: z.string().openapi({ example: '+91 98765 43210' }),
    name: z.string().openapi({ description: 'The name the network gave; empty when none is known' }),
    session_id: z.string(),
    extracted_at: z.string().openapi({ description: 'When this scrape ran (ISO 8601)' }),
  })
  .openapi('ScrapedLead');

const leadsRoute = createRoute({
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
    200: json(
      z.object({
        success: z.literal(true),
        totalScraped: z.number().int(),
        targetSessions: z.array(z.string()),
        contacts: z.array(Lead),
      }),
    ),
    ...errorResponses,
  },
});

/** Mounted at `/api/sessions/leads`, before the `/{sessionId}` routes. */
export function leadRoutes() {
  const r = router();
  r.openapi(leadsRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const q = c.req.valid('query');
    const sessions = await targetSessions(tenant, { sessionIds: q.sessionIds, mobile: q.mobile });
    const extractedAt = new Date().toISOString();
    async function* leads() {
      for await (const row of contactRows(tenant, sessions))
        yield {
          phone_number: row.phone,
          formatted_number: row.formatted,
          name: row.name,
          session_id: row.sessionId,
          extracted_at: extractedAt,
        };
    }
    const body = jsonEnvelopeStream(
      { success: true, targetSessions: sessions },
      'contacts',
      leads(),
      'totalScraped',
    );
    // Streamed: the body is the declared JSON, written row by row (the typed c.json would buffer it).
    return c.body(body, 200, jsonStreamHeaders) as never;
  });
  return r;
}
