import { router } from '#shared/http/context';
import { targetSessions } from './contacts-source.ts';
import { groupsExportAnswer } from './group-export.ts';
import { Body, groupsExportRoute } from './groups-export-routes.schema.ts';

/**
 * `/api/sessions/groups/export`: the tenant's own groups export (the admin's names any tenant,
 * `/api/admin/export/groups`), in the same rows and columns. Only the caller's sessions are read.
 */
export function groupsExportRoutes() {
  const r = router();
  r.openapi(groupsExportRoute, async (c) => {
    const tenantId = c.get('auth').tenant;
    const hasBody = c.req.header('content-type')?.includes('json');
    const p = hasBody ? c.req.valid('json') : Body.parse({});
    const sessions = await targetSessions(tenantId, { sessionIds: p.sessionIds });
    return (await groupsExportAnswer(tenantId, sessions, p)) as never;
  });
  return r;
}
