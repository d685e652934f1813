import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { AssetHashType, DockerImage, type Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { projectRoot } from './lambda-bundle.ts';
import { type LogSettings, logGroup as newLogGroup } from './log-groups.ts';

export { projectRoot };

export interface FunctionOptions {
  environment: Record<string, string>;
  timeout: Duration;
  memorySize?: number;
  logs?: LogSettings;
}

/**
 * `functions/<name>/`, bundled locally at synth by infra/lambda-bundle.ts (esbuild, no Docker): the
 * asset is the bundle folder, hashed by its content, so an unchanged function is not redeployed.
 */
function bundledCode(name: string): lambda.Code {
  return lambda.Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // The same build in a container; never used, as local bundling succeeds or throws. The command
      // also keys CDK's bundling cache, which must tell the functions apart.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
      workingDirectory: '/asset-input',
      command: ['node', '--import', 'tsx', 'infra/build-lambda.ts', name, '/asset-output'],
      local: {
        tryBundle(outputDir) {
          execFileSync(
            process.execPath,
            ['--import', 'tsx', join(projectRoot, 'infra', 'build-lambda.ts'), name, outputDir],
            { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'] },
          );
          return true;
        },
      },
    },
  });
}

/** `functions/<name>/handler.ts` (export `handler`): Node 24 on ARM64, its own log group. */
export function nodeFunction(
  scope: Construct,
  id: string,
  name: string,
  opt: FunctionOptions,
): lambda.Function {
  const logGroup = newLogGroup(scope, `${id}Logs`, opt.logs);
  // Its own role with writing to its own log group, instead of the AWSLambdaBasicExecutionRole managed
  // policy (any log group in the account).
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
  });
  logGroup.grantWrite(role);
  return new lambda.Function(scope, id, {
    role,
    code: bundledCode(name),
    handler: 'index.handler',
    runtime: lambda.Runtime.NODEJS_24_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: opt.memorySize ?? 512,
    timeout: opt.timeout,
    logGroup,
    environment: {
      ...opt.environment,
      SERVICE_NAME: name,
      NODE_OPTIONS: '--enable-source-maps',
      // Counters as CloudWatch embedded metrics, one log line after each invocation (shared/metrics).
      METRICS_FORMAT: 'emf',
    },
  });
}
