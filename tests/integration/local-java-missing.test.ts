import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDynamo } from '../../scripts/local/local-aws.ts';

describe('local mode on a machine without Java', () => {
  it('says what to install in one sentence instead of crashing on the spawn error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-java-'));
    const path = process.env.PATH;
    process.env.PATH = empty;
    try {
      await expect(startDynamo()).rejects.toThrow(
        'DynamoDB Local needs Java 17 or later (a JDK), and `java` is not on PATH: install one',
      );
    } finally {
      process.env.PATH = path;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
