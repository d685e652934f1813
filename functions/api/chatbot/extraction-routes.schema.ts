import { z } from '@hono/zod-openapi';
import { ExtractionRecord } from '#shared/chatbot/extraction';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { ok, routesTagged } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { SwitchKey } from './switch-routes.schema.ts';

/**
 * The definitions of the routes of extraction-routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('chatbot');

const SessionKey = SwitchKey;

export const extractionToggleRoute = route({
  method: 'post',
  path: '/json-extraction/toggle',
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
  responses: { 200: ok({ message: z.string(), sessionKey: z.string(), enabled: z.boolean() }) },
});

export const extractedDataRoute = route({
  method: 'get',
  path: '/extracted-data',
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
    200: ok({ sessionKey: z.string(), count: z.number().int(), records: z.array(ExtractionRecord) }),
  },
});
