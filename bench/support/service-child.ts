import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { must } from '../../tests/support/must.ts';

/*
 * `npm start`'s persistent mode in a child process (bench/support/service-process.ts), so the
 * service's CPU is its own: started, asked for its AWS request counts and CPU over stdin/stdout.
 */

export interface Child {
  proc: ChildProcess;
  lines: Interface;
  info: { baseUrl: string; adminApiKey: string; env: Record<string, string> };
}

export async function startChild(dataDir: string): Promise<Child> {
  const prof = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
  const proc = spawn(process.execPath, [...prof, '--import', 'tsx', 'bench/support/service-process.ts'], {
    env: { ...process.env, BENCH_DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: must(proc.stdout, "the child's stdout pipe") });
  const info = await new Promise<Child['info']>((resolve, reject) => {
    lines.on('line', (l) => l.startsWith('{"baseUrl"') && resolve(JSON.parse(l)));
    proc.once('exit', (c) => reject(new Error(`service exited with ${c}`)));
  });
  return { proc, lines, info };
}

export interface Counts {
  counts: Record<string, number>;
  /** CPU ms so far of the service process and of DynamoDB Local. */
  cpu: { service: number; dynamodb: number };
}

export function awsCounts(child: Child): Promise<Counts> {
  return new Promise((resolve) => {
    const on = (l: string) => {
      if (!l.startsWith('{"counts"')) return;
      child.lines.off('line', on);
      resolve(JSON.parse(l));
    };
    child.lines.on('line', on);
    must(child.proc.stdin, "the child's stdin pipe").write('counts\n');
  });
}
