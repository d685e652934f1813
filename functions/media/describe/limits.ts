import { inflateSync } from 'node:zlib';
import { imageSize } from 'image-size';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import { DescribeError } from './errors.ts';

/**
 * Bounds checked before any bytes go to a model (docs/media.md, "Image, document and video
 * understanding"). Images and PDFs are sent whole as base64, so their byte limits keep the request
 * under the providers' own (5 MB of base64 per image, 32 MB per request, 100 PDF pages); the page
 * and frame limits bound the cost of one message.
 */
export const DESCRIBE_LIMITS = {
  /** 5 MiB once base64-encoded, the Messages API's limit per image. */
  imageMaxBytes: 3_932_160,
  /** The Messages API refuses a side longer than 8000 px. */
  imageMaxSide: 8000,
  pdfMaxBytes: 10 * 1024 * 1024,
  /** Each page costs about 1,500–3,000 input tokens (its text and an image of it). */
  pdfMaxPages: 20,
  videoMaxBytes: MEDIA_MAX_BYTES,
  videoMaxSeconds: 300,
  /** Keyframes sent per video, evenly spaced, each at most `frameWidth` px wide (JPEG). */
  videoFrames: 4,
  frameWidth: 512,
} as const;

export type DescribeLimits = { -readonly [K in keyof typeof DESCRIBE_LIMITS]: number };

export type ModelImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

const IMAGE_TYPES: Record<string, ModelImageType> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The image's media type for the model, from its header; refuses what the model cannot take. */
export function checkModelImage(bytes: Uint8Array, limits: DescribeLimits = DESCRIBE_LIMITS): ModelImageType {
  if (bytes.byteLength === 0) throw new DescribeError('DESCRIBE_UNSUPPORTED', 'the image is empty');
  if (bytes.byteLength > limits.imageMaxBytes)
    throw new DescribeError(
      'DESCRIBE_TOO_LARGE',
      `the image is ${bytes.byteLength} bytes; at most ${limits.imageMaxBytes} are described`,
    );
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new DescribeError('DESCRIBE_UNSUPPORTED', 'the data is not an image');
  }
  const type = IMAGE_TYPES[size.type ?? ''];
  if (!type)
    throw new DescribeError(
      'DESCRIBE_UNSUPPORTED',
      `JPEG, PNG, GIF and WebP images are described; this one is ${size.type ?? 'unknown'}`,
    );
  if (!size.width || !size.height)
    throw new DescribeError('DESCRIBE_UNSUPPORTED', 'the image has no dimensions');
  if (Math.max(size.width, size.height) > limits.imageMaxSide)
    throw new DescribeError(
      'DESCRIBE_TOO_LARGE',
      `the image is ${size.width}×${size.height}; sides of at most ${limits.imageMaxSide} px are described`,
    );
  return type;
}

/** Refuses a PDF over the byte or page limit (pages counted without parsing the document). */
export function checkPdf(
  bytes: Uint8Array,
  limits: DescribeLimits = DESCRIBE_LIMITS,
): { pages: number | null } {
  if (bytes.byteLength > limits.pdfMaxBytes)
    throw new DescribeError(
      'DESCRIBE_TOO_LARGE',
      `the PDF is ${bytes.byteLength} bytes; at most ${limits.pdfMaxBytes} are explained`,
    );
  if (!isPdf(bytes)) throw new DescribeError('DESCRIBE_UNSUPPORTED', 'the document is not a PDF');
  const pages = pdfPageCount(bytes);
  if (pages !== null && pages > limits.pdfMaxPages)
    throw new DescribeError(
      'DESCRIBE_TOO_LARGE',
      `the PDF has ${pages} pages; at most ${limits.pdfMaxPages} are explained`,
    );
  return { pages };
}

/** A PDF starts with `%PDF-` within its first kilobyte. */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024))
    .toString('latin1')
    .includes('%PDF-');
}

const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/g;
const OBJECT_STREAM = /\/Type\s*\/ObjStm(?![A-Za-z])/g;
/** Inflated object streams are bounded, so a crafted file cannot make the count expensive. */
const MAX_INFLATED = 32 * 1024 * 1024;

/**
 * Counts page objects (`/Type /Page`), including those packed in compressed object streams
 * (PDF 1.5+). Null when none is found (an unusual encoding): the byte limit still applies and the
 * provider refuses documents over its own page limit.
 */
export function pdfPageCount(bytes: Uint8Array): number | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buf.toString('latin1');
  let pages = text.match(PAGE_OBJECT)?.length ?? 0;
  let budget = MAX_INFLATED;
  for (const m of text.matchAll(OBJECT_STREAM)) {
    const start = streamStart(text, m.index + m[0].length);
    const end = start < 0 ? -1 : text.indexOf('endstream', start);
    if (end < 0 || budget <= 0) continue;
    try {
      const inflated = inflateSync(buf.subarray(start, end), { maxOutputLength: budget });
      budget -= inflated.byteLength;
      pages += inflated.toString('latin1').match(PAGE_OBJECT)?.length ?? 0;
    } catch {
      // Not Flate, or truncated: its pages stay uncounted.
    }
  }
  return pages || null;
}

/** The offset of a stream's data: after the `stream` keyword and its end of line. */
function streamStart(text: string, from: number): number {
  const at = text.indexOf('stream', from);
  if (at < 0) return -1;
  let i = at + 'stream'.length;
  if (text[i] === '\r') i++;
  if (text[i] === '\n') i++;
  return i;
}
