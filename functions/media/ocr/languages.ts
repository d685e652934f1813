import { createHash } from 'node:crypto';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { OcrError } from './errors.ts';

/** Languages whose trained data ships in npm packages (`@tesseract.js-data/<code>`). */
export const SHIPPED_LANGUAGES = ['eng', 'mal'] as const;
export type OcrLanguage = (typeof SHIPPED_LANGUAGES)[number];

const require = createRequire(import.meta.url);

/**
 * The folder inside the language's npm package that holds `<code>.traineddata.gz`. We use the LSTM
 * "best_int" models: the LSTM-only core needs nothing else and they are the smaller set.
 */
export function languageDir(lang: OcrLanguage) {
  return join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
}

export function parseLanguages(langs: readonly string[] | undefined): OcrLanguage[] {
  const asked = langs && langs.length > 0 ? [...new Set(langs)] : ['eng'];
  const unknown = asked.filter((l) => !(SHIPPED_LANGUAGES as readonly string[]).includes(l));
  if (unknown.length > 0)
    throw new OcrError(
      'OCR_LANGUAGE_UNSUPPORTED',
      `OCR languages ${unknown.join(', ')} are not shipped; available: ${SHIPPED_LANGUAGES.join(', ')}`,
    );
  return asked as OcrLanguage[];
}

let directory: Promise<string> | undefined;

/**
 * One local folder holding `<code>.traineddata.gz` for every shipped language, as links into the
 * npm packages. Tesseract reads all languages from a single `langPath`, while each language lives in
 * its own package; passing the bytes instead (tesseract's `{code, data}` form) is broken in
 * tesseract.js 7 (it initialises with the data where it means the code). The folder is in the temp
 * directory (on Lambda, /tmp), named after the link targets, so processes of one install share it.
 */
export function languageDirectory() {
  directory ??= (async () => {
    const targets = SHIPPED_LANGUAGES.map((code) => join(languageDir(code), `${code}.traineddata.gz`));
    const key = createHash('sha256').update(targets.join('\n')).digest('hex').slice(0, 16);
    const dir = join(tmpdir(), `ocr-langs-${key}`);
    await mkdir(dir, { recursive: true });
    for (const target of targets) {
      await symlink(target, join(dir, basename(target))).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    }
    return dir;
  })();
  directory.catch(() => {
    directory = undefined;
  });
  return directory;
}
