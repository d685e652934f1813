import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ConsoleAssets } from './build.ts';

/** Where the API Lambda's bundle holds the console built at synth (infra/lambda-bundle.ts), under its root. */
export const LAMBDA_CONSOLE_DIR = 'console';

// A path esbuild cannot follow: the builder needs esbuild, a dev dependency the Lambda does not ship.
const BUILDER = './build.ts';

/**
 * The built console in a Lambda bundle: this module is then in the bundle's `index.mjs` or in one of
 * its `chunks/`, so the folder is beside it or one up. In the source tree neither exists.
 */
function prebuiltDir(): string | undefined {
  return ['./', '../']
    .map((up) => fileURLToPath(new URL(`${up}${LAMBDA_CONSOLE_DIR}/`, import.meta.url)))
    .find((dir) => existsSync(`${dir}app.js`));
}

/**
 * The console's script and style sheet: in the Lambda, the files built at synth; locally (npm start,
 * tests), built from the source now, so an edit shows on the next start and no built file is committed.
 */
export async function loadConsoleAssets(): Promise<ConsoleAssets> {
  const dir = prebuiltDir();
  if (dir) {
    const [js, css] = await Promise.all([
      readFile(`${dir}app.js`, 'utf8'),
      readFile(`${dir}app.css`, 'utf8'),
    ]);
    return { 'app.js': js, 'app.css': css };
  }
  const { buildConsole } = (await import(BUILDER)) as typeof import('./build.ts');
  return buildConsole();
}
