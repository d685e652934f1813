import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok, StringList } from '#shared/http/schemas';
import { ExportedGroup } from './group-export.ts';

/**
 * The definitions of the routes of groups-export-routes.ts: their schemas, which also make /openapi.json.
 */

export const Body = z.object({
  format: z.enum(['csv', 'json']).default('csv'),
  sessionIds: StringList.optional().openapi({
    description:
      'Session ids, mobids or numbers: an array or a comma-separated string; default every active session',
  }),
  bom: z.boolean().optional().openapi({ description: 'csv: start with a UTF-8 byte-order mark (Excel)' }),
});

export const groupsExportRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['leads'],
  security: bearer,
  summary: "Export the groups of the caller's sessions with their members, as CSV (default) or JSON",
  request: { body: { required: false, content: { 'application/json': { schema: Body } } } },
  responses: {
    200: {
      description: 'The groups, streamed',
      content: {
        'text/csv': {
          schema: z.string().openapi({ description: 'CSV with a header row (docs/exports.md)' }),
        },
        ...ok({ totalGroups: z.number().int(), groups: z.array(ExportedGroup) }).content,
      },
    },
    ...errorResponses,
  },
});
