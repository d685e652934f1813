import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real PostgreSQL server for tests: Debian's `postgresql` binaries (installed by `.ci/run`), a fresh
 * cluster in a temporary directory, password authentication, on a free port of 127.0.0.1. PostgreSQL
 * refuses to run as root, so as root it runs as `nobody`.
 */
export interface TestPostgres {
  url: string;
  user: string;
  password: string;
  port: number;
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  }
  throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot ? (['runuser', ['-u', 'nobody', '--', cmd, ...args]] as const) : ([cmd, args] as const);
  const user = 'exporter';
  const password = 'pw-s3cret-e2e';
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, password, { mode: 0o644 });
  const data = join(dir, 'data');
  const [initCmd, initArgs] = run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    user,
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(initCmd, [...initArgs], { stdio: 'pipe' });
  const port = await freePort();
  const [cmd, args] = run(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
  ]);
  const child: ChildProcess = spawn(cmd, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d) => {
    log += String(d);
  });
  child.stdout?.on('data', (d) => {
    log += String(d);
  });
  const deadline = Date.now() + 30_000;
  while (!/ready to accept connections/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`postgres did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/postgres`,
    user,
    password,
    port,
    stop: async () => {
      if (child.exitCode === null) {
        // Signals to runuser are not passed on: stop the postmaster itself, by its pid file.
        const pidFile = join(data, 'postmaster.pid');
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
        const exited = new Promise((r) => child.once('exit', r));
        if (pid > 0) process.kill(pid, 'SIGINT');
        else child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
