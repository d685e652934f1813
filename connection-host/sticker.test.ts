import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isWebp, STICKER_SIZE, toSticker } from './sticker.ts';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 20, b: 20, alpha: 1 } } })
    .png()
    .toBuffer();

describe('toSticker', () => {
  it('converts a PNG into a 512×512 WebP, keeping its aspect on a transparent canvas', async () => {
    const out = await toSticker(new Uint8Array(await png(300, 150)));
    expect(isWebp(out)).toBe(true);
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: STICKER_SIZE, height: STICKER_SIZE, hasAlpha: true });
    // The top rows are padding: transparent.
    const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
  });

  it('sends a WebP as it is', async () => {
    const webp = new Uint8Array(
      await sharp(await png(100, 100))
        .webp()
        .toBuffer(),
    );
    expect(await toSticker(webp)).toBe(webp);
  });

  it('refuses an image of more pixels than the limit before decoding it', async () => {
    const huge = await sharp({
      create: { width: 8000, height: 8000, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(toSticker(new Uint8Array(huge))).rejects.toThrow(/pixel limit/i);
  });

  it('refuses bytes that are no image', async () => {
    await expect(toSticker(new TextEncoder().encode('not an image at all'))).rejects.toThrow();
  });
});
