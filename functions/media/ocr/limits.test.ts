import { describe, expect, it } from 'vitest';
import { OcrError } from './errors.ts';
import { parseLanguages } from './languages.ts';
import { checkImage, OCR_LIMITS } from './limits.ts';
import { blankImage } from './test-images.ts';

function refusal(f: () => unknown) {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(OcrError);
    return err as OcrError;
  }
  throw new Error('expected an OcrError');
}

describe('checkImage', () => {
  it('reads format and dimensions from the header', async () => {
    expect(checkImage(await blankImage(640, 480))).toEqual({ type: 'png', width: 640, height: 480 });
    expect(checkImage(await blankImage(320, 200, 'jpeg'))).toEqual({ type: 'jpg', width: 320, height: 200 });
  });

  it('refuses more pixels than the limit, before anything is decoded', async () => {
    const big = await blankImage(5000, 5000); // 25 MP, a few tens of KB as PNG
    expect(big.byteLength).toBeLessThan(OCR_LIMITS.maxBytes);
    const err = refusal(() => checkImage(big));
    expect(err.code).toBe('OCR_IMAGE_TOO_LARGE');
    expect(err.message).toBe('the image is 5000×5000 (25.0 MP); OCR accepts at most 20 MP');
    expect(checkImage(await blankImage(5000, 4000)).width).toBe(5000); // exactly 20 MP passes
  });

  it('refuses more bytes than the limit', () => {
    const err = refusal(() => checkImage(Buffer.alloc(OCR_LIMITS.maxBytes + 1)));
    expect(err.code).toBe('OCR_IMAGE_TOO_LARGE');
    expect(err.message).toMatch(/at most 10485760 bytes/);
  });

  it('refuses formats the worker cannot decode, data that is no image, and empty input', async () => {
    expect(refusal(() => checkImage(Buffer.alloc(0))).code).toBe('OCR_IMAGE_UNSUPPORTED');
    expect(refusal(() => checkImage(Buffer.from('just some text, no image'))).message).toBe(
      'the data is not an image OCR can read',
    );
    const tiff = await blankImage(10, 10, 'tiff');
    const err = refusal(() => checkImage(tiff));
    expect(err.code).toBe('OCR_IMAGE_UNSUPPORTED');
    expect(err.message).toBe('OCR reads png, jpg, bmp, webp, pnm images; this one is tiff');
  });
});

describe('parseLanguages', () => {
  it('defaults to English, keeps shipped languages, drops repeats', () => {
    expect(parseLanguages(undefined)).toEqual(['eng']);
    expect(parseLanguages([])).toEqual(['eng']);
    expect(parseLanguages(['mal', 'eng', 'mal'])).toEqual(['mal', 'eng']);
  });

  it('refuses a language that is not shipped, naming the ones that are', () => {
    const err = refusal(() => parseLanguages(['eng', 'fra']));
    expect(err.code).toBe('OCR_LANGUAGE_UNSUPPORTED');
    expect(err.message).toBe('OCR languages fra are not shipped; available: eng, mal');
  });
});
