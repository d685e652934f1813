import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Tests draw text into images (SVG rendered by sharp, then read back by OCR). sharp finds fonts
 * through fontconfig, which by default reads the machine's /etc/fonts and system font folders: on a
 * machine without fonts the text would come out blank. This points fontconfig at the DejaVu fonts
 * that `npm install` brings (`dejavu-fonts-ttf`) and at nothing else, so every machine draws the
 * same glyphs. It sets FONTCONFIG_FILE for this process and every process it starts afterwards
 * (vitest's workers, forked after the config is read); an explicit FONTCONFIG_FILE is kept.
 */
export function useBundledFonts(): void {
  if (process.env.FONTCONFIG_FILE) return;
  let fonts: string;
  try {
    fonts = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  } catch {
    throw new Error(
      'dejavu-fonts-ttf is not installed (npm install brings it): tests that draw text need it',
    );
  }
  // One folder per fonts folder (checkouts side by side do not share one), written whole by rename
  // so a process reading it at the same moment never sees half a file.
  const key = createHash('sha256').update(`${process.getuid?.()}:${fonts}`).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `fontconfig-${key}`);
  mkdirSync(join(dir, 'cache'), { recursive: true });
  const file = join(dir, 'fonts.conf');
  const xml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  const partial = `${file}.${process.pid}`;
  writeFileSync(
    partial,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>${xml(fonts)}</dir>
  <cachedir>${xml(join(dir, 'cache'))}</cachedir>
</fontconfig>
`,
  );
  renameSync(partial, file);
  process.env.FONTCONFIG_FILE = file;
}
