import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

function entryPath(name: string): string {
  return join(projectRoot, 'functions', name, 'handler.ts');
}

// ESM bundles have no `require`; CommonJS dependencies that call it dynamically need one.
// The alias keeps the banner's import from clashing with an identical import inside the bundle.
const REQUIRE_BANNER =
  "import { createRequire as __bannerCreateRequire } from 'node:module'; " +
  'const require = __bannerCreateRequire(import.meta.url);';

export interface FunctionOptions {
  environment: Record<string, string>;
  timeout: Duration;
  memorySize?: number;
}

/** `functions/<name>/handler.ts` (export `handler`), bundled locally with esbuild into one ESM file. */
export function nodeFunction(
  scope: Construct,
  id: string,
  name: string,
  opt: FunctionOptions,
): NodejsFunction {
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  return new NodejsFunction(scope, id, {
    entry: entryPath(name),
    handler: 'handler',
    projectRoot,
    depsLockFilePath: join(projectRoot, 'package-lock.json'),
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: opt.memorySize ?? 512,
    timeout: opt.timeout,
    logGroup,
    environment: { ...opt.environment, SERVICE_NAME: name, NODE_OPTIONS: '--enable-source-maps' },
    bundling: {
      forceDockerBundling: false,
      format: OutputFormat.ESM,
      target: 'node20',
      mainFields: ['module', 'main'],
      banner: REQUIRE_BANNER,
      // The AWS SDK v3 is bundled too (tree-shaken, one file): importing it from the runtime's
      // node_modules took about 3x longer (docs/benchmarks.md, "Lambda bundles").
      externalModules: [],
      sourceMap: true,
      minify: true,
      keepNames: true,
    },
  });
}
