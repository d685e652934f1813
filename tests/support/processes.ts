import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import { must } from './must.ts';

/** Starts a project script as its own process, sharing the running service's AWS endpoints. */
export function spawnScript(script: string, env: Record<string, string>): ChildProcess {
  // `node --import tsx`, not the tsx launcher: signals (SIGKILL above all) must reach the real process.
  return spawnNode(['--import', 'tsx', script], env);
}

/**
 * Starts `node <argv>` (in `cwd`, the repository by default) with the running service's AWS
 * endpoints and `env` on top; an empty value means "not set" for the child (e.g. let it serve its
 * own simulator).
 */
export function spawnNode(argv: string[], env: Record<string, string>, cwd?: string): ChildProcess {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    ...inject('serviceEnv'),
    LOG_LEVEL: 'warn',
    ...env,
  };
  for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
  const proc = spawn(process.execPath, argv, {
    env: merged,
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(cwd ? { cwd } : {}),
  });
  // Unread, a full pipe would block the child's logging; its warnings belong in the test output.
  proc.stdout?.pipe(process.stderr);
  return proc;
}

/** Starts the HTTP app + consumers in a child process and answers its base URL. */
export async function spawnApi(
  env: Record<string, string>,
): Promise<{ proc: ChildProcess; baseUrl: string }> {
  const proc = spawnScript('scripts/local/api-process.ts', env);
  const lines = createInterface({ input: must(proc.stdout, 'proc.stdout') });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('api process did not start in 30 s')), 30_000);
    lines.on('line', (line) => {
      if (!line.startsWith('{"baseUrl"')) return;
      clearTimeout(t);
      resolve(JSON.parse(line).baseUrl);
    });
    proc.once('exit', (code) => reject(new Error(`api process exited with ${code}`)));
  });
  return { proc, baseUrl };
}

export async function stopProcess(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}
