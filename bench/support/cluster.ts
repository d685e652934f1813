import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Table } from '#shared/store/db';
import { leaseKey, sessionKey } from '#shared/store/keys';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';
import { startLocalAws } from '../../scripts/local/local-aws.ts';
import { localSecrets } from '../../scripts/local/secrets.ts';
import { jsonCaller } from '../../tests/support/http.ts';
import { must } from '../../tests/support/must.ts';

let aws: Awaited<ReturnType<typeof startLocalAws>> | undefined;

/** The local AWS servers of this bench process; the SDK clients are per process, so one set serves all. */
export async function localAws() {
  aws ??= await startLocalAws();
  return aws;
}

/** API and host child processes on this process's local AWS servers, under their own prefix. */
export async function startCluster(opts: { prefix: string; shards: number; env?: Record<string, string> }) {
  const aws = await localAws();
  const secrets = localSecrets();
  await bootstrapResources(opts.prefix, opts.shards);
  const base = {
    ...process.env,
    ...aws.env,
    ADMIN_API_KEY: secrets.ADMIN_API_KEY,
    JWT_SECRET: secrets.JWT_SECRET,
    RESOURCE_PREFIX: opts.prefix,
    SHARD_COUNT: String(opts.shards),
    // One lease shard per command queue unless the bench asks for more (LEASE_SHARDS in opts.env).
    LEASE_SHARDS: String(opts.shards),
    MESSAGING_DRIVER: 'simulator',
    LOG_LEVEL: 'warn',
    ...opts.env,
  } as Record<string, string>;
  const procs: ChildProcess[] = [];
  const spawnTs = (script: string, env: Record<string, string> = {}) => {
    // `node --import tsx`, not the tsx launcher: the pid must be the real process (memory, SIGKILL).
    const p = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // The processes log to stdout: shown (on stderr) only when a bench asks for their logs.
    if (env.LOG_LEVEL && env.LOG_LEVEL !== 'warn') p.stdout?.pipe(process.stderr);
    else p.stdout?.resume();
    procs.push(p);
    return p;
  };
  const api = spawnTs('scripts/local/api-process.ts');
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: must(api.stdout, 'api.stdout') }).on(
      'line',
      (l) => l.startsWith('{"baseUrl"') && resolve(JSON.parse(l).baseUrl),
    );
    api.once('exit', (c) => reject(new Error(`api exited ${c}`)));
  });
  const call = async (method: string, path: string, token?: string, body?: unknown) =>
    (await jsonCaller(baseUrl)(method, path, token, body)).body;
  const token = (await call('POST', '/api/auth/token', undefined, { apiKey: secrets.ADMIN_API_KEY }))
    .token as string;
  const data = new Table(() => `${opts.prefix}-data`);
  return {
    baseUrl,
    token,
    /** The host id a shard's lease names now (a dead host's until another takes the shard). */
    leaseOwner: async (shard: number) => (await data.get<{ owner?: string }>(leaseKey(shard), true))?.owner,
    /** A session's status as its host last wrote it, with the fence it wrote under and when. */
    sessionState: (tenantId: string, sessionId: string) =>
      data.get<{ status?: string; fence?: number; stateAt?: number }>(sessionKey(tenantId, sessionId), true),
    call,
    spawnHost: (hostId: string) =>
      spawnTs('scripts/local/host-process.ts', {
        HOST_ID: hostId,
        SIM_NETWORK_URL: baseUrl,
        // BENCH_HOST_LOG_LEVEL=info (or debug): the hosts' logs on stderr, to see where time goes.
        ...(process.env.BENCH_HOST_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_HOST_LOG_LEVEL } : {}),
      }),
    async stop() {
      for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    },
  };
}

/** Resident set size of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)\s+kB/);
  return m ? Number(m[1]) * 1024 : 0;
}

export async function until<T>(
  fn: () => Promise<T | undefined | false>,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
