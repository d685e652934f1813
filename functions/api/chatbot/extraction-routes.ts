import { createRoute, z } from '@hono/zod-openapi';
import { ExtractionRecord, listExtractions } from '#shared/chatbot/extraction';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { setExtractionEnabled } from '#shared/chatbot/switches';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { SwitchKey } from './switch-routes.ts';

const tags = ['chatbot'];

const SessionKey = SwitchKey;

/** `/json-extraction/toggle` and `/extracted-data` (mounted under `/api/v1/chatbot`; docs/extraction.md). */
export function extractionRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'post',
      path: '/json-extraction/toggle',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'Turn structured extraction (booking/lead records) on or off for a session key',
      request: {
        body: {
          content: {
            'application/json': {
              schema: z.object({
                sessionKey: SessionKey.openapi({
                  description: 'phone, session id, mobid, profile, or `global`/`*` for all sessions',
                }),
                enabled: z.boolean(),
              }),
            },
          },
        },
      },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            message: z.string(),
            sessionKey: z.string(),
            enabled: z.boolean(),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { sessionKey, enabled } = c.req.valid('json');
      await setExtractionEnabled(c.get('auth').tenant, sessionKey, enabled);
      const message = enabled
        ? `Extraction on for ${sessionKey}: conversations are turned into booking and lead records.`
        : `Extraction off for ${sessionKey}.`;
      return c.json({ success: true as const, message, sessionKey, enabled }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/extracted-data',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: "The tenant's extracted booking and lead records, newest first",
      request: {
        query: z.object({
          sessionKey: SessionKey.default(GLOBAL_KEY).openapi({
            description: '`global` (default): all of the tenant; a session key or profile name narrows',
          }),
        }),
      },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            count: z.number().int(),
            records: z.array(ExtractionRecord),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { sessionKey } = c.req.valid('query');
      const records = await listExtractions(c.get('auth').tenant, sessionKey);
      return c.json({ success: true as const, sessionKey, count: records.length, records }, 200);
    },
  );
  return r;
}
