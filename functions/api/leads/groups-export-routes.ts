import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json, StringList } from '#shared/http/schemas';
import { targetSessions } from './contacts-source.ts';
import { ExportedGroup, groupsExportAnswer } from './group-export.ts';

const Body = z.object({
  format: z.enum(['csv', 'json']).default('csv'),
  sessionIds: StringList.optional().openapi({
    description:
      'Session ids, mobids or numbers: an array or a comma-separated string; default every active session',
  }),
  bom: z.boolean().optional().openapi({ description: 'csv: start with a UTF-8 byte-order mark (Excel)' }),
});

const route = createRoute({
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
        ...json(
          z.object({
            success: z.literal(true),
            totalGroups: z.number().int(),
            groups: z.array(ExportedGroup),
          }),
        ).content,
      },
    },
    ...errorResponses,
  },
});

/**
 * `/api/sessions/groups/export`: the tenant's own groups export (the admin's names any tenant,
 * `/api/admin/export/groups`), in the same rows and columns. Only the caller's sessions are read.
 */
export function groupsExportRoutes() {
  const r = router();
  r.openapi(route, async (c) => {
    const tenantId = c.get('auth').tenant;
    const hasBody = c.req.header('content-type')?.includes('json');
    const p = hasBody ? c.req.valid('json') : Body.parse({});
    const sessions = await targetSessions(tenantId, { sessionIds: p.sessionIds });
    return (await groupsExportAnswer(tenantId, sessions, p)) as never;
  });
  return r;
}
