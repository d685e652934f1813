import type { CsvColumn } from '../exports/csv.ts';
import { contactRows } from '../leads/contacts-source.ts';

/** One exported contact: the lead scrape's fields (docs/exports.md), also each of `GET /api/sessions/leads`. */
export interface ExportRow {
  phone_number: string;
  formatted_number: string;
  name: string;
  session_id: string;
  extracted_at: string;
}

export const EXPORT_COLUMNS = [
  'phone_number',
  'formatted_number',
  'name',
  'session_id',
  'extracted_at',
] as const;

export const exportCsvColumns: CsvColumn<ExportRow>[] = EXPORT_COLUMNS.map((k) => ({
  header: k,
  value: (r) => r[k],
}));

/** The deduplicated contacts of the sessions, paged from DynamoDB (see contactRows). */
export async function* exportRows(
  tenantId: string,
  sessions: readonly string[],
  extractedAt: string,
): AsyncGenerator<ExportRow> {
  for await (const r of contactRows(tenantId, sessions))
    yield {
      phone_number: r.phone,
      formatted_number: r.formatted,
      name: r.name,
      session_id: r.sessionId,
      extracted_at: extractedAt,
    };
}

/** Groups an async sequence into arrays of at most `size`. */
export async function* batches<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const r of rows) {
    batch.push(r);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
