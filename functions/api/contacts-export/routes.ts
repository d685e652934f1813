import { router } from '#shared/http/context';
import { ValidationError } from '#shared/http/errors';
import { csvHeaders, csvStream } from '../exports/csv.ts';
import { targetSessions } from '../leads/contacts-source.ts';
import { exportConfig } from './config.ts';
import { exportRoute, getSettingsRoute, putSettingsRoute } from './routes.schema.ts';
import { type ExportRow, exportCsvColumns, exportRows } from './rows.ts';
import { exportKeyOf, uploadExport } from './s3-delivery.ts';
import { loadExportSettings, maskedSettings, saveExportSettings } from './settings.ts';
import { appendToSheet } from './sheets-target.ts';
import { upsertIntoPostgres } from './sql-target.ts';

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
