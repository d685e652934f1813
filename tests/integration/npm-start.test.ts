import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { must } from '../support/must.ts';
import { spawnScript, stopProcess } from '../support/processes.ts';

/** `npm start` (scripts/start.ts) as its own process: what it prints and whether it starts. */
function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wsm-start-'));
  const proc = spawnScript('scripts/start.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_FORMAT: 'json',
    // Its own local AWS servers, not the test service's.
    AWS_ENDPOINT_URL_DYNAMODB: '',
    AWS_ENDPOINT_URL_S3: '',
    AWS_ENDPOINT_URL_SQS: '',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: '',
    PUBLIC_BASE_URL: '',
    SIM_NETWORK_URL: '',
    ...env,
  });
  let out = '';
  must(proc.stdout, 'proc.stdout').on('data', (c: Buffer) => {
    out += c.toString();
  });
  return {
    proc,
    output: () => out,
    async stop() {
      await stopProcess(proc);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('npm start', () => {
  it('never prints an admin key given in ADMIN_API_KEY', async () => {
    const key = 'adm_supplied_by_the_operator_0123456789';
    const s = start({ ADMIN_API_KEY: key, MESSAGING_DRIVER: 'simulator' });
    try {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no banner in 60 s:\n${s.output()}`)), 60_000);
        const poll = setInterval(() => {
          if (!s.output().includes('Ctrl-C stops everything')) return;
          clearTimeout(t);
          clearInterval(poll);
          resolve();
        }, 100);
        s.proc.once('exit', (code) => reject(new Error(`exited with ${code}:\n${s.output()}`)));
      });
      expect(s.output()).toContain('Admin key  (from ADMIN_API_KEY, not shown)');
      expect(s.output()).not.toContain(key);
    } finally {
      await s.stop();
    }
  }, 90_000);

  it('refuses to start the simulated network with NODE_ENV=production, before starting anything', async () => {
    const s = start({ NODE_ENV: 'production', MESSAGING_DRIVER: 'simulator' });
    const code = await new Promise<number | null>((resolve) => s.proc.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(s.output()).not.toContain('is running');
    await s.stop();
  }, 30_000);
});
