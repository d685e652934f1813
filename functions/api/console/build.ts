import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The console's files as the browser loads them. */
export interface ConsoleAssets {
  'app.js': string;
  'app.css': string;
}

const entry = fileURLToPath(new URL('./app/main.tsx', import.meta.url));
const tsconfig = fileURLToPath(new URL('./app/tsconfig.json', import.meta.url));

/**
 * Bundles the console (preact + our TSX and CSS) in memory: at the local app's start
 * (functions/api/console/assets.ts) and at synth for the API Lambda (infra/lambda-bundle.ts), so no
 * built file is committed and none can go stale. About 100 ms; no network.
 */
export async function buildConsole(): Promise<ConsoleAssets> {
  const result = await build({
    entryPoints: [entry],
    tsconfig,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'console',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
  if (!js || !css) throw new Error('the console build made no script or no style sheet');
  return { 'app.js': js.text, 'app.css': css.text };
}
