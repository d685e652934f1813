import { deflateSync } from 'node:zlib';

/**
 * A small valid PDF (one line of Helvetica text per page) for tests. With `objectStream`, the page
 * objects are packed in a Flate-compressed object stream as PDF 1.5 writers do (for the page count;
 * that variant's cross-reference table is not exact).
 */
export function testPdf(lines: string[], opts: { objectStream?: boolean } = {}): Buffer {
  const n = lines.length;
  const pageId = (i: number) => 4 + i * 2;
  const contentId = (i: number) => 5 + i * 2;
  const kids = lines.map((_, i) => `${pageId(i)} 0 R`).join(' ');
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${kids}] /Count ${n} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  const page = (i: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId(i)} 0 R >>`;
  const pages = lines.map((_, i) => page(i));
  lines.forEach((line, i) => {
    const text = `BT /F1 14 Tf 20 100 Td (${line.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`;
    objects[contentId(i)] = `<< /Length ${text.length} >>\nstream\n${text}\nendstream`;
    if (!opts.objectStream) objects[pageId(i)] = page(i);
  });
  if (opts.objectStream) {
    // As a PDF 1.5 writer may: the pages packed in one compressed stream, the tree's count not given.
    objects[2] = `<< /Type /Pages /Kids [${kids}] >>`;
    const header = lines.map((_, i) => `${pageId(i)} 0`).join(' ');
    const packed = deflateSync(Buffer.from(`${header}\n${pages.join('\n')}`, 'latin1'));
    objects[contentId(n - 1) + 1] =
      `<< /Type /ObjStm /N ${n} /First ${header.length + 1} /Filter /FlateDecode /Length ${packed.length} >>\n` +
      `stream\n${packed.toString('latin1')}\nendstream`;
  }
  let out = '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, id) => {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${body}\nendobj\n`;
  });
  const size = objects.length;
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let id = 1; id < size; id++) {
    out +=
      offsets[id] === undefined
        ? '0000000000 65535 f \n'
        : `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  }
  out += `trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
