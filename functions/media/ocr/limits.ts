import { imageSize } from 'image-size';
import { OcrError } from './errors.ts';

/** Bounds checked before an image reaches the OCR worker (headers only, nothing decoded). */
export const OCR_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 20_000_000,
  timeoutMs: 30_000,
} as const;

/** Formats the leptonica build inside tesseract.js-core decodes. */
const FORMATS = new Set(['png', 'jpg', 'bmp', 'webp', 'pnm']);

export interface ImageInfo {
  type: string;
  width: number;
  height: number;
}

/** Reads the format and dimensions from the header and refuses what the worker should not decode. */
export function checkImage(
  image: Uint8Array,
  limits: Pick<typeof OCR_LIMITS, 'maxBytes' | 'maxPixels'> = OCR_LIMITS,
) {
  if (image.byteLength === 0) throw new OcrError('OCR_IMAGE_UNSUPPORTED', 'the image is empty');
  if (image.byteLength > limits.maxBytes)
    throw new OcrError(
      'OCR_IMAGE_TOO_LARGE',
      `the image is ${image.byteLength} bytes; OCR accepts at most ${limits.maxBytes} bytes`,
    );
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(image);
  } catch {
    throw new OcrError('OCR_IMAGE_UNSUPPORTED', 'the data is not an image OCR can read');
  }
  const type = size.type ?? 'unknown';
  if (!FORMATS.has(type))
    throw new OcrError(
      'OCR_IMAGE_UNSUPPORTED',
      `OCR reads ${[...FORMATS].join(', ')} images; this one is ${type}`,
    );
  const { width, height } = size;
  if (!width || !height) throw new OcrError('OCR_IMAGE_UNSUPPORTED', 'the image has no dimensions');
  if (width * height > limits.maxPixels)
    throw new OcrError(
      'OCR_IMAGE_TOO_LARGE',
      `the image is ${width}×${height} (${((width * height) / 1e6).toFixed(1)} MP); OCR accepts at most ${limits.maxPixels / 1e6} MP`,
    );
  return { type, width, height } satisfies ImageInfo;
}
