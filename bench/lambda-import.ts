import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Every Lambda's bundle size and cold import time, next to a bare Hono + DynamoDB client module built
 * the same way in the same run. Bundles use the stack's esbuild options (infra/functions.ts: ESM,
 * minified, `module` before `main`, AWS SDK v3 external as the Lambda runtime provides it); each is also
 * built with the SDK bundled (what the stack deploys since the SDK stopped being external). Each import runs in a fresh `node` process.
 *
 * Run: npx tsx bench/lambda-import.ts [runs=5]
 */
const RUNS = Number(process.argv[2] ?? 5);
// Inside the repository, so the external AWS SDK resolves from node_modules as from the runtime's.
const dir = join('dist', 'bench-lambda');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const BANNER =
  "import { createRequire as __bannerCreateRequire } from 'node:module'; const require = __bannerCreateRequire(import.meta.url);";

writeFileSync(
  join(dir, 'bare-entry.ts'),
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { Hono } from 'hono';\nexport const app = new Hono();\nexport const client = new DynamoDBClient({});\n",
);
const entries: Array<[string, string, boolean]> = [
  ['bare hono + dynamodb', join(dir, 'bare-entry.ts'), true],
  ['bare hono + dynamodb (SDK bundled)', join(dir, 'bare-entry.ts'), false],
  ['api', 'functions/api/handler.ts', true],
  ['api (SDK bundled)', 'functions/api/handler.ts', false],
  ['events', 'functions/events/handler.ts', true],
  ['events (SDK bundled)', 'functions/events/handler.ts', false],
  ['webhooks', 'functions/webhooks/handler.ts', true],
  ['webhooks (SDK bundled)', 'functions/webhooks/handler.ts', false],
  ['chatbot', 'functions/chatbot/handler.ts', true],
  ['chatbot (SDK bundled)', 'functions/chatbot/handler.ts', false],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
for (const [name, entry, externalSdk] of entries) {
  const outfile = join(dir, `${name.replace(/[^a-z0-9]+/g, '-')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    mainFields: ['module', 'main'],
    minify: true,
    keepNames: true,
    external: externalSdk ? ['@aws-sdk/*'] : [],
    banner: { js: BANNER },
    logLevel: 'error',
  });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const t = performance.now(); await import(${JSON.stringify(`./${outfile}`)}); console.log(performance.now() - t);`,
      ],
      { env: { ...process.env, AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' }, encoding: 'utf8' },
    );
    times.push(Number(out.trim().split('\n').at(-1)));
  }
  rows.push(
    `| ${name} | ${(statSync(outfile).size / 1024).toFixed(0)} KiB | ${median(times).toFixed(0)} ms | ${Math.min(...times).toFixed(0)} ms |`,
  );
}
console.log(`| bundle | size | import median of ${RUNS} | fastest |\n|---|---|---|---|\n${rows.join('\n')}`);
rmSync(dir, { recursive: true, force: true });
