import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../lambda-bundle.ts';
import { costReport } from './report.ts';

describe('npm run cost', () => {
  it('prints what docs/deploy.md shows for the default settings (rerun it when the stack changes)', () => {
    const report = costReport({});
    const tables = report.split('\n').slice(2, -2).join('\n').trim();
    expect(tables).toContain('| **Total** |');
    const doc = readFileSync(join(projectRoot, 'docs/deploy.md'), 'utf8');
    expect(doc).toContain(tables);
  }, 120_000);
});
