import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvStream } from './csv.ts';

const text = async (s: ReadableStream<Uint8Array>) =>
  new TextDecoder().decode(await new Response(s).arrayBuffer());
const bytes = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer());

const columns = [
  { header: 'Name', value: (r: { name: string; n: number }) => r.name },
  { header: 'N', value: (r: { name: string; n: number }) => r.n },
];

describe('CSV writer', () => {
  it('guards cells a spreadsheet would read as a formula', () => {
    for (const s of ['=1+1', '+91 98765 43210', '-2', '@SUM(A1)', '\tx', '\rx'])
      expect(csvCell(s)).toBe(`'${s}`);
    for (const s of ['Asha', '9 = 9', 'a-b', "'quoted", '']) expect(csvCell(s)).toBe(s);
    expect(csvCell(-2)).toBe(-2);
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
  });

  it('quotes commas, quotes, newlines and keeps UTF-8 text; parses back to the same rows', async () => {
    const rows = [
      { name: 'Sharma, Asha', n: 1 },
      { name: 'Ravi "K"', n: 2 },
      { name: 'two\nlines', n: 3 },
      { name: 'മീര നായർ', n: 4 },
      { name: '=cmd()', n: -5 },
    ];
    const out = await text(await csvStream(columns, rows));
    expect(out.split('\r\n')[0]).toBe('Name,N');
    expect(parse(out, { columns: true })).toEqual([
      { Name: 'Sharma, Asha', N: '1' },
      { Name: 'Ravi "K"', N: '2' },
      { Name: 'two\nlines', N: '3' },
      { Name: 'മീര നായർ', N: '4' },
      { Name: "'=cmd()", N: '-5' },
    ]);
  });

  it('quotes a lone CR or LF and guards every line, so no reader finds a formula row', async () => {
    const hostile = [
      'Asha\r=1+2',
      "Ravi\n@SUM(1+1)*cmd|' /C calc'!A0",
      'x\r\n+HYPERLINK("http://x")',
      'y\n\n-2+3',
      '\r\n=start',
    ];
    expect(csvCell('Asha\r=1+2')).toBe("Asha\r'=1+2");
    expect(csvCell('a\nb')).toBe('a\nb');
    const out = await text(
      await csvStream(
        columns,
        hostile.map((name, n) => ({ name, n })),
      ),
    );
    // Every cell holding a line break is quoted.
    for (const h of hostile) expect(out).toContain(`"${String(csvCell(h)).replaceAll(`"`, `""`)}"`);
    // A reader that breaks rows at every CR or LF, as a spreadsheet app may on unquoted text, and
    // one that honours quotes: neither finds a cell starting with a formula character.
    const strict = parse(out, { record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true });
    const naive = out.split(/\r\n|\r|\n/).map((line) => line.split(','));
    for (const rows of [strict, naive])
      for (const row of rows as string[][])
        for (const cell of row)
          expect(cell.replace(/^"/, ''), JSON.stringify(row)).not.toMatch(/^[=+@\t]|^-[^\d]/);
    expect(strict.length).toBe(hostile.length + 1);
  });

  it('writes a BOM only when asked, and the header with no rows', async () => {
    const withBom = await bytes(await csvStream(columns, [], { bom: true }));
    expect([...withBom.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const plain = await bytes(await csvStream(columns, []));
    expect(new TextDecoder().decode(plain)).toBe('Name,N\r\n');
  });

  it('pulls rows from an async source as the reader takes them', async () => {
    let produced = 0;
    let closed = false;
    async function* many() {
      try {
        for (let i = 0; i < 100_000; i++) {
          produced++;
          yield { name: `row ${i}`, n: i };
        }
      } finally {
        closed = true;
      }
    }
    const reader = (await csvStream(columns, many())).getReader();
    await reader.read();
    // Back pressure: far from all 100,000 rows were generated for the first chunk.
    expect(produced).toBeLessThan(50_000);
    await reader.cancel();
    // The row source is closed when the reader goes away (a client that disconnects).
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    expect(produced).toBeLessThan(50_000);
  });
});
