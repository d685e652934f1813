import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DescribeError } from './errors.ts';
import { checkModelImage, checkPdf, DESCRIBE_LIMITS, isPdf, pdfPageCount } from './limits.ts';
import { testPdf } from './test-media.ts';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#88aacc' } })
    .png()
    .toBuffer();

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DescribeError);
    return (err as DescribeError).code;
  }
  throw new Error('not refused');
};

describe('PDF page count', () => {
  it('counts page objects, and those packed in compressed object streams', () => {
    expect(pdfPageCount(testPdf(['one']))).toBe(1);
    expect(pdfPageCount(testPdf(['a', 'b', 'c']))).toBe(3);
    expect(pdfPageCount(testPdf(['a', 'b', 'c', 'd'], { objectStream: true }))).toBe(4);
    // `/Type /Pages` (the tree) is not a page.
    expect(testPdf(['a']).toString('latin1')).toContain('/Type /Pages');
  });

  it('is null when no page object can be read; a broken stream is skipped', () => {
    expect(
      pdfPageCount(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /ObjStm >>\nstream\nnot flate\nendstream')),
    ).toBe(null);
  });

  it('refuses a PDF over the page or byte limit, and what is not a PDF', () => {
    const limits = { ...DESCRIBE_LIMITS, pdfMaxPages: 2 };
    expect(checkPdf(testPdf(['a', 'b']), limits)).toEqual({ pages: 2 });
    expect(refusal(() => checkPdf(testPdf(['a', 'b', 'c']), limits))).toBe('DESCRIBE_TOO_LARGE');
    expect(refusal(() => checkPdf(testPdf(['a']), { ...limits, pdfMaxBytes: 100 }))).toBe(
      'DESCRIBE_TOO_LARGE',
    );
    expect(refusal(() => checkPdf(Buffer.from('PK\u0003\u0004 a zip file'), limits))).toBe(
      'DESCRIBE_UNSUPPORTED',
    );
    expect(isPdf(testPdf(['a']))).toBe(true);
  });
});

describe('image check', () => {
  it('gives the media type from the header, whatever the file claims', async () => {
    expect(checkModelImage(await png(20, 10))).toBe('image/png');
    const jpeg = await sharp(await png(20, 10))
      .jpeg()
      .toBuffer();
    expect(checkModelImage(jpeg)).toBe('image/jpeg');
  });

  it('refuses images over the side or byte limit, and formats the model does not take', async () => {
    expect(refusal(() => checkModelImage(Buffer.alloc(0)))).toBe('DESCRIBE_UNSUPPORTED');
    expect(refusal(() => checkModelImage(Buffer.from('not an image at all')))).toBe('DESCRIBE_UNSUPPORTED');
    const wide = await png(300, 10);
    expect(refusal(() => checkModelImage(wide, { ...DESCRIBE_LIMITS, imageMaxSide: 200 }))).toBe(
      'DESCRIBE_TOO_LARGE',
    );
    expect(refusal(() => checkModelImage(wide, { ...DESCRIBE_LIMITS, imageMaxBytes: 10 }))).toBe(
      'DESCRIBE_TOO_LARGE',
    );
    const tiff = await sharp(await png(20, 10))
      .tiff()
      .toBuffer();
    expect(refusal(() => checkModelImage(tiff))).toBe('DESCRIBE_UNSUPPORTED');
  });
});
