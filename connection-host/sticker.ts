import sharp from 'sharp';

/** The network's sticker format: a WebP of 512×512. */
export const STICKER_SIZE = 512;
export const STICKER_MIMETYPE = 'image/webp';

/**
 * The most pixels a sticker's source image may have (about 7000×7000): an image is decoded whole,
 * so a small file declaring huge dimensions (a decompression bomb) is refused before it is.
 */
export const STICKER_SOURCE_MAX_PIXELS = 50_000_000;

/** RIFF....WEBP: the file already is a WebP. */
export function isWebp(bytes: Uint8Array): boolean {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  return bytes.byteLength >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP';
}

/**
 * The image as a sticker. A WebP goes as it is (it may be animated, and phones send stickers of
 * other sizes too); any other image sharp reads is fitted into 512×512 on a transparent canvas,
 * its aspect kept, and encoded as WebP. Throws on bytes that are no image.
 */
export async function toSticker(bytes: Uint8Array): Promise<Uint8Array> {
  if (isWebp(bytes)) return bytes;
  const out = await sharp(bytes, { limitInputPixels: STICKER_SOURCE_MAX_PIXELS })
    .resize(STICKER_SIZE, STICKER_SIZE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .webp()
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
