import { Readable } from 'node:stream';

/**
 * CSV for spreadsheet apps (docs/exports.md, "CSV rules"): RFC 4180 quoting by `csv-stringify`
 * (a cell with a comma, quote, CR or LF is quoted, quotes doubled), CRLF line ends, a header row,
 * UTF-8, optionally with a byte-order mark so Excel reads non-Latin text (Malayalam, …) right.
 */

/** A formula-start character at the start of the text or right after any line break. */
const FORMULA_AT_LINE_START = /(^|\r\n|\r|\n)(?=[=+\-@\t\r])/g;

/**
 * A cell as text, with the formula-injection guard: text starting with `=`, `+`, `-`, `@`, tab or CR
 * gets a leading `'`, so spreadsheet apps show it as text instead of evaluating it, and so does every
 * line inside it (a reader that splits rows at a lone CR or LF must not find a formula there either).
 * Numbers are written as they are (a negative number is data, not a formula); null and undefined are
 * empty.
 */
export function csvCell(v: unknown): string | number {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? v : '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.replace(FORMULA_AT_LINE_START, "$1'");
}

export interface CsvColumn<T> {
  /** The header cell. */
  header: string;
  value: (row: T) => unknown;
}

export interface CsvOptions {
  /** Start with a UTF-8 byte-order mark (EF BB BF) for spreadsheet apps. */
  bom?: boolean;
}

/**
 * Rows → a CSV byte stream, read from `rows` only as fast as the consumer takes the output (back
 * pressure), so a large export never sits in memory. The header row is written even with no rows.
 */
export async function csvStream<T>(
  columns: readonly CsvColumn<T>[],
  rows: AsyncIterable<T> | Iterable<T>,
  opt: CsvOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const { stringify } = await import('csv-stringify'); // on first use (cold start)
  const stringifier = stringify({
    bom: opt.bom ?? false,
    header: true,
    columns: columns.map((c, i) => ({ key: String(i), header: c.header })),
    record_delimiter: 'windows',
    // csv-stringify quotes a cell holding the record delimiter (CRLF), not a lone CR or LF, which
    // spreadsheet apps read as a row break: such a cell is quoted too.
    quoted_match: /[\r\n]/,
    cast: { number: (n) => String(n) },
  });
  async function* records() {
    for await (const row of rows)
      yield Object.fromEntries(columns.map((c, i) => [String(i), csvCell(c.value(row))]));
  }
  const source = Readable.from(records());
  source.on('error', (err) => stringifier.destroy(err));
  // A client that goes away ends the reading of rows too.
  stringifier.on('close', () => source.destroy());
  source.pipe(stringifier);
  return Readable.toWeb(stringifier) as ReadableStream<Uint8Array>;
}

/** The headers of a CSV download named `<name>.csv`. */
export function csvHeaders(name: string): Record<string, string> {
  return {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}.csv"`,
    'cache-control': 'no-store',
  };
}
