import sharp from 'sharp';

/** A PNG of black text lines on white, rendered from SVG (DejaVu Sans, from npm: tests/support/fonts.ts). Test-only. */
export function textImage(lines: string[], { width = 1000, fontSize = 48 } = {}) {
  const lineHeight = Math.round(fontSize * 1.6);
  const height = lineHeight * (lines.length + 1);
  const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const text = lines
    .map(
      (l, i) =>
        `<text x="40" y="${lineHeight * (i + 1)}" font-family="DejaVu Sans" font-size="${fontSize}" fill="black">${escapeXml(l)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A blank image of the given size and format (compresses to little, whatever its pixel count). */
export function blankImage(width: number, height: number, format: 'png' | 'tiff' | 'gif' | 'jpeg' = 'png') {
  return sharp({ create: { width, height, channels: 3, background: 'white' } })
    .toFormat(format)
    .toBuffer();
}
