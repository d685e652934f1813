import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_SETTINGS } from './context.ts';
import { projectRoot } from './lambda-bundle.ts';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');

/** Every `-c` name the stack reads: the context readers' string arguments, and the service settings. */
function contextNames(): Set<string> {
  const names = new Set(Object.keys(SERVICE_SETTINGS));
  for (const file of ['infra/context.ts', 'infra/host-settings.ts']) {
    const calls = read(file).matchAll(/\b(?:tryGetContext|optional|positive|get|flag)\('([A-Za-z]+)'/g);
    for (const [, name] of calls) if (name) names.add(name);
  }
  return names;
}

describe('docs/deploy.md, the settings table', () => {
  it('has a row for every -c setting the stack reads (a first deployer finds each in one table)', () => {
    const doc = read('docs/deploy.md');
    const header = doc.indexOf('| Setting | Kind | Default | Meaning |');
    expect(header).toBeGreaterThan(0);
    const [table = ''] = doc.slice(header).split('\n\n');
    const rows = table.split('\n');
    const firstCells = rows.map((r) => r.split('|')[1] ?? '').join(' ');
    const names = contextNames();
    // The reader found them: the check can fail.
    for (const n of ['prefix', 'shardCount', 'natGateway', 'hostMemory', 'corsOrigins', 'ttsProvider'])
      expect(names).toContain(n);
    const missing = [...names].filter((n) => !firstCells.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });
});
