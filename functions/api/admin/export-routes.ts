import type { z } from '@hono/zod-openapi';
import { ADMIN_TENANT_ID, requireTenant } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { type CsvColumn, csvHeaders, csvStream } from '../exports/csv.ts';
import { jsonEnvelopeStream, jsonStreamHeaders } from '../exports/json-stream.ts';
import { type ContactRow, contactRows, targetSessions, utcDateTime } from '../leads/contacts-source.ts';
import { exportStamp, groupsExportAnswer } from '../leads/group-export.ts';
import { type BodySchema, contactsRoute, groupsRoute, type QuerySchema } from './export-routes.schema.ts';

/*
 * Administrative exports (docs/exports.md). Admin scope only (the `/api/admin` router checks it). An
 * admin token belongs to the admin tenant; `tenantId` names the tenant whose sessions are exported
 * (default: the admin tenant's own), so an administrator can export any tenant.
 */

type Merged = z.infer<typeof BodySchema>;

/** Query and body together; a field in the body wins. */
function merged(query: z.infer<typeof QuerySchema>, body: Merged | undefined): Merged {
  const q: Merged = {
    ...query,
    bom: query.bom === undefined ? undefined : query.bom === 'true' || query.bom === '1',
  };
  const out: Record<string, unknown> = { ...q };
  for (const [k, v] of Object.entries(body ?? {})) if (v !== undefined) out[k] = v;
  return out as Merged;
}

async function scope(p: Merged) {
  const tenantId = p.tenantId ?? ADMIN_TENANT_ID;
  if (p.tenantId) await requireTenant(p.tenantId);
  const sessionIds = [...(p.sessionIds ?? []), ...(p.sessionId ? [p.sessionId] : [])];
  return { tenantId, sessions: await targetSessions(tenantId, { sessionIds }) };
}

export const contactExportRow = (r: ContactRow) => ({
  Name: r.name,
  Number: r.formatted,
  RawNumber: r.phone,
  LastMsgOn: utcDateTime(r.lastMsgAt),
  Session: r.sessionId,
});

const contactColumns: CsvColumn<ReturnType<typeof contactExportRow>>[] = [
  { header: 'Name', value: (r) => r.Name },
  { header: 'Number', value: (r) => r.Number },
  { header: 'RawNumber', value: (r) => r.RawNumber },
  { header: 'LastMsgOn', value: (r) => r.LastMsgOn },
  { header: 'Session', value: (r) => r.Session },
];

async function* mapRows<A, B>(rows: AsyncIterable<A>, f: (a: A) => B): AsyncGenerator<B> {
  for await (const r of rows) yield f(r);
}

/** Mounted at `/api/admin/export`, behind the admin router's `requireAuth` and `requireAdmin`. */
export function adminExportRoutes() {
  const r = router();
  r.openapi(contactsRoute, async (c) => {
    const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined;
    const p = merged(c.req.valid('query'), body);
    const { tenantId, sessions } = await scope(p);
    const rows = mapRows(contactRows(tenantId, sessions), contactExportRow);
    if (p.format === 'csv')
      return c.body(
        await csvStream(contactColumns, rows, { bom: p.bom }),
        200,
        csvHeaders(`contacts-${exportStamp()}`),
      ) as never;
    return c.body(
      jsonEnvelopeStream({ success: true }, 'contacts', rows, 'totalContacts'),
      200,
      jsonStreamHeaders,
    ) as never;
  });
  r.openapi(groupsRoute, async (c) => {
    const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined;
    const p = merged(c.req.valid('query'), body);
    const { tenantId, sessions } = await scope(p);
    return (await groupsExportAnswer(tenantId, sessions, p)) as never;
  });
  return r;
}
