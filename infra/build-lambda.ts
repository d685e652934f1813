import { bundleLambda } from './lambda-bundle.ts';

/**
 * `node --import tsx infra/build-lambda.ts <name> <outdir>`: one function's bundle, for the stack's
 * asset bundling (which must be synchronous, while esbuild's plugins need its asynchronous API).
 */
const [name, outdir] = process.argv.slice(2);
if (!name || !outdir) throw new Error('usage: build-lambda.ts <function name> <outdir>');
await bundleLambda(name, outdir);
