import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { ValidationError } from '#shared/http/errors';
import { bearer, errorResponses, json, StringList } from '#shared/http/schemas';
import { csvHeaders, csvStream } from '../exports/csv.ts';
import { targetSessions } from '../leads/contacts-source.ts';
import { exportConfig } from './config.ts';
import { type ExportRow, exportCsvColumns, exportRows } from './rows.ts';
import { exportKeyOf, uploadExport } from './s3-delivery.ts';
import { loadExportSettings, maskedSettings, SettingsInput, saveExportSettings } from './settings.ts';
import { appendToSheet } from './sheets-target.ts';
import { upsertIntoPostgres } from './sql-target.ts';

const ExportBody = z.object({
  exportType: z.enum(['csv', 'onlinesheet', 'sqltable']),
  sessionIds: StringList.optional().openapi({
    description:
      'Session ids, mobids or numbers: an array or a comma-separated string; default every active session',
  }),
  mobile: z.string().max(40).optional().openapi({ description: 'One connected number: only its contacts' }),
  bom: z.boolean().optional().openapi({ description: 'csv: start with a UTF-8 byte-order mark (Excel)' }),
  delivery: z.enum(['auto', 'inline', 's3']).optional().openapi({
    description:
      'csv: `inline` streams the file in the response, `s3` answers a download link, `auto` (default) links when there are more rows than CONTACTS_EXPORT_S3_THRESHOLD',
  }),
});

const exportRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['leads'],
  security: bearer,
  summary:
    'Export the deduplicated contacts as CSV, into a Google Sheet or a PostgreSQL table (docs/exports.md)',
  request: { body: { required: true, content: { 'application/json': { schema: ExportBody } } } },
  responses: {
    200: {
      description: 'CSV file, or a JSON summary (S3 link, sheet or table written)',
      content: {
        'text/csv': { schema: z.string() },
        'application/json': {
          schema: z.object({
            success: z.literal(true),
            exportType: z.string(),
            targetSessions: z.array(z.string()),
            totalContacts: z.number().int(),
            downloadUrl: z.string().optional(),
            expiresIn: z.number().int().optional(),
            table: z.string().optional(),
            spreadsheetId: z.string().optional(),
            updatedRanges: z.array(z.string()).optional(),
          }),
        },
      },
    },
    ...errorResponses,
  },
});

const SettingsOut = z.object({
  success: z.literal(true),
  settings: z.object({
    sqltable: z.object({ connectionString: z.string(), table: z.string() }).nullable(),
    onlinesheet: z
      .object({
        spreadsheetId: z.string(),
        sheetName: z.string(),
        serviceAccountKey: z.object({ client_email: z.string(), private_key: z.string() }).passthrough(),
      })
      .nullable(),
    updatedAt: z.string().nullable(),
  }),
});

const getSettingsRoute = createRoute({
  method: 'get',
  path: '/settings',
  tags: ['leads'],
  security: bearer,
  summary: 'The tenant’s export targets (secrets masked)',
  responses: { 200: json(SettingsOut), ...errorResponses },
});

const putSettingsRoute = createRoute({
  method: 'put',
  path: '/settings',
  tags: ['leads'],
  security: bearer,
  summary: 'Set the tenant’s export targets (PostgreSQL table, Google Sheet)',
  request: { body: { required: true, content: { 'application/json': { schema: SettingsInput } } } },
  responses: { 200: json(SettingsOut), ...errorResponses },
});

/** Reads rows while there are at most `limit`: the rows and whether more follow (the iterator goes on). */
async function head(it: AsyncIterator<ExportRow>, limit: number) {
  const rows: ExportRow[] = [];
  while (rows.length <= limit) {
    const n = await it.next();
    if (n.done) return { rows, more: false };
    rows.push(n.value);
  }
  return { rows, more: true };
}

async function* concat(first: ExportRow[], rest: AsyncIterator<ExportRow> | undefined, count: { n: number }) {
  // The rows read ahead are let go as they are written.
  for (let i = 0; i < first.length; i++) {
    const row = first[i] as ExportRow;
    (first as unknown[])[i] = undefined;
    count.n++;
    yield row;
  }
  first.length = 0;
  if (!rest) return;
  for (;;) {
    const n = await rest.next();
    if (n.done) return;
    count.n++;
    yield n.value;
  }
}

async function* counted<T>(rows: AsyncIterable<T>, count: { n: number }) {
  for await (const r of rows) {
    count.n++;
    yield r;
  }
}

/** Mounted at `/api/sessions/contacts/export`, before the `/{sessionId}` routes. */
export function contactsExportRoutes() {
  const r = router();
  r.openapi(getSettingsRoute, async (c) => {
    const s = await loadExportSettings(c.get('auth').tenant);
    return c.json({ success: true as const, settings: maskedSettings(s) }, 200);
  });
  r.openapi(putSettingsRoute, async (c) => {
    const s = await saveExportSettings(c.get('auth').tenant, c.req.valid('json'));
    return c.json({ success: true as const, settings: maskedSettings(s) }, 200);
  });
  r.openapi(exportRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const q = c.req.valid('json');
    const settings = q.exportType === 'csv' ? undefined : await loadExportSettings(tenant);
    if (q.exportType === 'sqltable' && !settings?.sqltable)
      throw new ValidationError(
        'exportType: sqltable is not configured; set it with PUT /api/sessions/contacts/export/settings',
        'exportType',
      );
    if (q.exportType === 'onlinesheet' && !settings?.onlinesheet)
      throw new ValidationError(
        'exportType: onlinesheet is not configured; set it with PUT /api/sessions/contacts/export/settings',
        'exportType',
      );
    const sessions = await targetSessions(tenant, { sessionIds: q.sessionIds, mobile: q.mobile });
    const now = new Date();
    const extractedAt = now.toISOString();
    const stamp = extractedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const fileName = `contacts-${stamp}`;
    const rows = exportRows(tenant, sessions, extractedAt);
    const count = { n: 0 };
    const base = { success: true as const, exportType: q.exportType, targetSessions: sessions };

    if (q.exportType === 'sqltable' && settings?.sqltable) {
      const written = await upsertIntoPostgres(settings.sqltable, counted(rows, count));
      return c.json({ ...base, totalContacts: count.n, table: written.table }, 200);
    }
    if (q.exportType === 'onlinesheet' && settings?.onlinesheet) {
      const done = await appendToSheet(settings.onlinesheet, counted(rows, count));
      return c.json(
        {
          ...base,
          totalContacts: count.n,
          spreadsheetId: settings.onlinesheet.spreadsheetId,
          updatedRanges: done.updatedRanges,
        },
        200,
      );
    }

    // csv
    const delivery = q.delivery ?? 'auto';
    const it = rows[Symbol.asyncIterator]();
    let first: ExportRow[] = [];
    let toS3 = delivery === 's3';
    if (delivery === 'auto') {
      const h = await head(it, exportConfig().s3Threshold);
      first = h.rows;
      toS3 = h.more;
    }
    const body = await csvStream(exportCsvColumns, concat(first, it, count), { bom: q.bom ?? false });
    if (!toS3) return c.body(body, 200, csvHeaders(fileName)) as never;
    const link = await uploadExport(tenant, exportKeyOf(tenant, stamp), body, fileName);
    return c.json({ ...base, totalContacts: count.n, downloadUrl: link.url, expiresIn: link.expiresIn }, 200);
  });
  return r;
}
