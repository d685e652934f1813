import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import { must } from '#shared/must';
import { LAMBDA_CONSOLE_DIR } from '../functions/api/console/assets.ts';
import { buildConsole } from '../functions/api/console/build.ts';

/**
 * How every Lambda is bundled (the stack through infra/build-lambda.ts, and bench/lambda-import.ts):
 * ESM, minified, code split. The entry `index.mjs` holds what every invocation needs; what only some
 * requests use (`await import(...)` in our code, and the AWS SDK's own optional credential providers)
 * is in `chunks/`, read from disk only when first used.
 */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** `functions/<name>/handler.ts`. */
export const lambdaEntry = (name: string) => join(projectRoot, 'functions', name, 'handler.ts');

// ESM bundles have no `require`; CommonJS dependencies that call it dynamically need one.
// The alias keeps the banner's import from clashing with an identical import inside the bundle.
const REQUIRE_BANNER =
  "import { createRequire as __bannerCreateRequire } from 'node:module'; " +
  'const require = __bannerCreateRequire(import.meta.url);';

const require = createRequire(import.meta.url);

/**
 * Zod re-exports every locale as one namespace object (`z.locales`), which no bundler can tree-shake
 * (about 260 KiB minified). The service only uses English, zod's default: the namespace is replaced
 * by one that holds `en` alone, so `z.locales.en` still works and no other locale is shipped.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    const en = join(dirname(require.resolve('zod/v4/core')), '..', 'locales', 'en.js');
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`)
        ? { path: 'locales', namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(en)};`,
      resolveDir: projectRoot,
    }));
  },
};

/** The esbuild options for one function's bundle, written to `outdir/index.mjs` (+ `chunks/`). */
export function lambdaBuildOptions(entry: string, outdir: string): BuildOptions {
  return {
    entryPoints: { index: entry },
    absWorkingDir: projectRoot,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    mainFields: ['module', 'main'],
    // The AWS SDK v3 is bundled too (tree-shaken): importing it from the runtime's node_modules took
    // about 3x longer (docs/benchmarks.md, "Lambda bundles").
    external: [],
    banner: { js: REQUIRE_BANNER },
    minify: true,
    sourcemap: true,
    metafile: true,
    plugins: [zodEnglishOnly],
    logLevel: 'warning',
  };
}

/** What a function reads from disk at run time, beside its bundle. */
interface RuntimeFiles {
  /** npm packages, copied whole with their dependencies, and so left out of the bundle. */
  packages: string[];
  /** Files of its own, relative to its folder. */
  files: string[];
  /**
   * Single files of npm packages (`package/file`), copied to the bundle's `node_modules` where
   * `require.resolve` finds them, for a package of which the function reads only those.
   */
  packageFiles?: string[];
  /** Files built now and written beside the bundle (relative path → text). */
  built?: () => Promise<Record<string, string>>;
}

const RUNTIME: Record<string, RuntimeFiles> = {
  // `/docs`: the Swagger UI script and style sheet it serves (functions/api/docs.ts), not a CDN's.
  api: {
    packages: [],
    files: [],
    packageFiles: ['swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui-dist/swagger-ui.css'],
    // `/console`: its script and style sheet, bundled here as locally (functions/api/console/assets.ts).
    built: async () =>
      Object.fromEntries(
        Object.entries(await buildConsole()).map(([name, text]) => [join(LAMBDA_CONSOLE_DIR, name), text]),
      ),
  },
  // OCR: tesseract.js starts a worker thread from a script file (worker-entry.cjs) and reads its
  // wasm core and the language data from node_modules (functions/media/ocr).
  media: {
    packages: ['tesseract.js', '@tesseract.js-data/eng', '@tesseract.js-data/mal'],
    files: ['ocr/worker-entry.cjs'],
  },
};

/**
 * Files of those packages that the function never reads: OCR runs the LSTM-only core
 * (`legacyCore: false`) with the `4.0.0_best_int` models (functions/media/ocr/languages.ts).
 */
const SKIPPED_FILES = [
  /\.(map|md|d\.ts)$/,
  /tesseract\.js-core\/tesseract-core(-simd|-relaxedsimd)?\.(js|wasm|wasm\.js)$/,
  /@tesseract\.js-data\/[^/]+\/4\.0\.0(\/|$)/,
];

function packageDir(name: string, from: string): string {
  return dirname(createRequire(join(from, 'noop.js')).resolve(`${name}/package.json`));
}

/** Copies `names` and every package they depend on into `outdir/node_modules`, flat. */
function copyPackages(names: string[], outdir: string) {
  const done = new Set<string>();
  const visit = (name: string, from: string) => {
    if (done.has(name)) return;
    done.add(name);
    const dir = packageDir(name, from);
    cpSync(dir, join(outdir, 'node_modules', name), {
      recursive: true,
      filter: (src) => !SKIPPED_FILES.some((skip) => skip.test(src)),
    });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir);
  };
  for (const name of names) visit(name, projectRoot);
}

/** Bundles `functions/<name>/handler.ts` into `outdir` with what it needs at run time. */
export async function bundleLambda(name: string, outdir: string): Promise<Metafile> {
  const runtime = RUNTIME[name] ?? { packages: [], files: [] };
  const options = lambdaBuildOptions(lambdaEntry(name), outdir);
  const result = await build({ ...options, external: runtime.packages });
  const metafile = must(result.metafile, 'the metafile esbuild was asked for');
  for (const file of runtime.files) {
    // Beside the output that holds the modules of the file's folder, where their
    // `new URL('./…', import.meta.url)` finds it (the entry or a chunk).
    const folder = `functions/${name}/${dirname(file)}/`;
    const output = Object.entries(metafile.outputs).find(
      ([out, { inputs }]) => out.endsWith('.mjs') && Object.keys(inputs).some((i) => i.startsWith(folder)),
    )?.[0];
    if (!output) throw new Error(`bundleLambda(${name}): no output holds ${folder}`);
    cpSync(join(projectRoot, 'functions', name, file), join(projectRoot, dirname(output), basename(file)));
  }
  copyPackages(runtime.packages, outdir);
  for (const file of runtime.packageFiles ?? []) {
    cpSync(require.resolve(file), join(outdir, 'node_modules', file));
  }
  for (const [file, text] of Object.entries((await runtime.built?.()) ?? {})) {
    mkdirSync(dirname(join(outdir, file)), { recursive: true });
    writeFileSync(join(outdir, file), text);
  }
  return metafile;
}
