import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { logger } from '#shared/log/logger';

/**
 * `HOSTS=<n> npm start` with n above 1: n connection hosts, each its own process (host-process.ts)
 * on this service's AWS servers, so the hosts share the shards as ECS tasks do, and one can be
 * stopped (kill <pid>) to watch its sessions move (`GET /api/admin/hosts` shows each pid).
 */
export function spawnHosts(count: number, env: Record<string, string>): { stop(): Promise<void> } {
  const script = fileURLToPath(new URL('./host-process.ts', import.meta.url));
  const procs: ChildProcess[] = [];
  // Each host names itself; one HTTP port cannot serve them all.
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete childEnv.HOST_ID;
  delete childEnv.HOST_HTTP_PORT;
  for (let i = 0; i < count; i++) {
    // `node --import tsx`, not the tsx launcher: a signal sent to the pid reaches the host itself.
    const proc = spawn(process.execPath, ['--import', 'tsx', script], {
      env: childEnv,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // A host killed from outside is not started again: its shards move to the others, as in the cloud
    // until ECS replaces the task.
    proc.once('exit', (code, signal) => {
      const fields = { pid: proc.pid, code, signal };
      if (code === 0) logger.info(fields, 'connection host exited');
      else logger.warn(fields, 'connection host exited');
    });
    procs.push(proc);
  }
  return {
    async stop() {
      await Promise.all(
        procs.map(async (p) => {
          if (p.exitCode !== null || p.signalCode !== null) return;
          const exited = new Promise((r) => p.once('exit', r));
          p.kill('SIGTERM');
          const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
