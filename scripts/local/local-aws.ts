import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawnDynamoLocal } from './dynamo-process.ts';
import { useWriteAheadLog } from './dynamo-wal.ts';
import { freePort, LOOPBACK } from './free-port.ts';
import { startS3Sqs } from './s3-sqs.ts';
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
 * through `AWS_ENDPOINT_URL_<SERVICE>`. `dataDir` makes DynamoDB, the queues, the S3 objects and the
 * secrets persistent (s3-sqs.ts); without it they live in memory.
 */
export async function startLocalAws(opts: { dataDir?: string } = {}): Promise<LocalAws> {
  const dynamo = await startDynamo(opts.dataDir ? resolve(opts.dataDir, 'dynamodb') : undefined);
  const faux = await startS3Sqs(opts.dataDir ? resolve(opts.dataDir) : undefined);
  const secrets = await startSecretsManager({
    file: opts.dataDir ? resolve(opts.dataDir, 'secretsmanager.json') : undefined,
  });

  const env: Record<string, string> = {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_S3: faux.address,
    AWS_ENDPOINT_URL_SQS: faux.address,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
  };
  Object.assign(process.env, env);

  return {
    env,
    dynamoPid: dynamo.pid,
    async stop() {
      await Promise.all([faux.stop(), secrets.stop(), dynamo.stop()]);
    },
  };
}

const LOCAL_REGION = 'us-east-1';
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface LocalDynamo {
  endpoint: string;
  pid?: number;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local on a free loopback port and waits until it answers: its tables in `dir`
 * (SQLite in write-ahead-log mode, dynamo-wal.ts), or in memory without one.
 */
export async function startDynamo(dir?: string): Promise<LocalDynamo> {
  const port = await freePort();
  if (dir) {
    mkdirSync(dir, { recursive: true });
    // Durable, with one sync a write request instead of four (dynamo-wal.ts).
    useWriteAheadLog(dir);
  }
  // DynamoDB Local reports usage to AWS unless told not to; a local run sends nothing anywhere.
  process.env.DDB_LOCAL_TELEMETRY ??= '0';
  const proc: ChildProcess = spawnDynamoLocal({ port, dir });
  // What it says on stderr, for the error when it does not start (a missing JDK, a port in use).
  let stderr = '';
  // No `java` on PATH: spawn reports it here (and the process never runs), not as an exit code.
  let spawnError: NodeJS.ErrnoException | undefined;
  proc.once('error', (e: NodeJS.ErrnoException) => {
    spawnError = e;
  });
  proc.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-2000);
  });
  const endpoint = `http://${LOOPBACK}:${port}`;
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForDynamo(
      proc,
      endpoint,
      () => stderr,
      () => {
        if (spawnError?.code === 'ENOENT')
          return 'DynamoDB Local needs Java 17 or later (a JDK), and `java` is not on PATH: install one';
        return spawnError && `DynamoDB Local could not start Java: ${spawnError.message}`;
      },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, pid: proc.pid, stop };
}

/**
 * Waits until DynamoDB Local answers, with a client of its own: the process's shared clients make
 * their first request only after whoever starts the service has added its middleware
 * (`beforeFirstRequest` in service.ts).
 */
async function waitForDynamo(
  proc: ChildProcess,
  endpoint: string,
  stderr: () => string,
  spawnFailure: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  const probe = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    for (;;) {
      const failed = spawnFailure();
      if (failed) throw new Error(failed);
      if (proc.exitCode !== null)
        throw new Error(
          `DynamoDB Local exited with code ${proc.exitCode}: it needs Java 17 or later with its compiler (a JDK). ${stderr().trim()}`,
        );
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
