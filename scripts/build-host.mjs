// Bundles the connection host (connection-host/main.ts) into one ESM file, dist/host.mjs, so the
// container runs it with plain `node` (no tsx). Packages with native binaries stay external and come
// from `npm ci` in the image, built for its architecture. Usage: node scripts/build-host.mjs [outfile]
import { build } from 'esbuild';

export const HOST_EXTERNALS = ['sharp', 'jimp', 'link-preview-js', 'audio-decode', 'qrcode-terminal'];

const outfile = process.argv[2] ?? 'dist/host.mjs';
await build({
  entryPoints: ['connection-host/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  keepNames: true,
  sourcemap: true,
  external: HOST_EXTERNALS,
  // CommonJS dependencies call `require` at run time; ESM output has none of its own.
  banner: {
    js: "import { createRequire as __bannerCreateRequire } from 'node:module'; const require = __bannerCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
