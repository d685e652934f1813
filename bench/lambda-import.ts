import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundleLambda, lambdaBuildOptions, projectRoot } from '../infra/lambda-bundle.ts';
import { must } from '../tests/support/must.ts';

/**
 * Every Lambda's bundle size and cold import time, next to a bare Hono + DynamoDB client module built
 * the same way in the same run (the floor). Bundles are made exactly as the stack makes them
 * (infra/lambda-bundle.ts: minified ESM, AWS SDK bundled, code split). "Loaded at import" is the entry
 * plus the chunks it imports statically, i.e. what a cold start reads and evaluates; the lazy chunks
 * are read only by the requests that use them. Each import runs in a fresh `node` process.
 *
 * Run: npx tsx bench/lambda-import.ts [runs=5]
 */
const RUNS = Number(process.argv[2] ?? 5);
const dir = join(projectRoot, 'dist', 'bench-lambda');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const bareEntry = join(dir, 'bare-entry.ts');
writeFileSync(
  bareEntry,
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { Hono } from 'hono';\nexport const app = new Hono();\nexport const client = new DynamoDBClient({});\n",
);

/** Bytes of the entry plus its static imports, and of every output. */
function sizes(metafile: Metafile): { atImport: number; total: number } {
  const outputs = metafile.outputs;
  const entry = must(
    Object.keys(outputs).find((k) => k.endsWith('/index.mjs')),
    "an entry of Object.keys(outputs) where k.endsWith('/index.mjs')",
  );
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of must(outputs[key], 'outputs[key]').imports)
      if (i.kind === 'import-statement' && outputs[i.path]) walk(i.path);
  };
  walk(entry);
  const bytes = (keys: string[]) => keys.reduce((sum, k) => sum + must(outputs[k], 'outputs[k]').bytes, 0);
  return { atImport: bytes([...seen]), total: bytes(Object.keys(outputs).filter((k) => k.endsWith('.mjs'))) };
}

const median = (xs: number[]) =>
  must([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)], 'a median (is the sample empty?)');
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

/** An API Gateway (HTTP API) event for `GET path` with no credentials. */
const apiEvent = (path: string) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: path,
  rawQueryString: '',
  headers: { host: 'bench' },
  requestContext: {
    http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
  },
  isBase64Encoded: false,
});

/** Median ms of `RUNS` fresh processes running `code` (which prints its own elapsed ms last). */
function timed(code: string): number[] {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      env: { ...process.env, AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    times.push(Number(printed.trim().split('\n').at(-1)));
  }
  return times;
}

const rows: string[] = [];
for (const name of ['bare hono + dynamodb', 'api', 'events', 'webhooks', 'chatbot', 'media']) {
  const out = join(dir, name.replace(/[^a-z0-9]+/g, '-'));
  const metafile = !name.startsWith('bare')
    ? await bundleLambda(name, out)
    : must(
        (await build(lambdaBuildOptions(bareEntry, out))).metafile,
        '(await build(lambdaBuildOptions(bareEntry, out))).metafile',
      );
  const index = JSON.stringify(join(out, 'index.mjs'));
  const times = timed(
    `const t = performance.now(); await import(${index}); console.log(performance.now() - t);`,
  );
  const { atImport, total } = sizes(metafile);
  rows.push(
    `| ${name} | ${kib(atImport)} | ${kib(total)} | ${median(times).toFixed(0)} ms | ${Math.min(...times).toFixed(0)} ms |`,
  );
  if (name !== 'api') continue;
  // A cold start is the import plus the first request: the API builds a prefix's routes on its
  // first request (the chatbot's are the largest set), and every route for /openapi.json.
  for (const path of ['/api/v1/chatbot/rules', '/openapi.json']) {
    const first = timed(
      `const t = performance.now(); const { handler } = await import(${index}); await handler(${JSON.stringify(apiEvent(path))}, {}); console.log(performance.now() - t);`,
    );
    rows.push(
      `| api: import + first \`GET ${path}\` | | | ${median(first).toFixed(0)} ms | ${Math.min(...first).toFixed(0)} ms |`,
    );
  }
}
console.log(
  `| bundle | loaded at import | all chunks | import median of ${RUNS} | fastest |\n|---|---|---|---|---|\n${rows.join('\n')}`,
);
console.log(`\nnpx tsx bench/lambda-import.ts ${RUNS}`);
rmSync(dir, { recursive: true, force: true });
