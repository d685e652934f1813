import { afterEach, describe, expect, it } from 'vitest';
import { leaseShardsFor } from '../sessions/shard.ts';
import { env, resetEnvCache } from './env.ts';

const saved = { SHARD_COUNT: process.env.SHARD_COUNT, LEASE_SHARDS: process.env.LEASE_SHARDS };

describe('lease shards and command queues', () => {
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  });

  it('LEASE_SHARDS must be a multiple of SHARD_COUNT, so a lease shard feeds one command queue', () => {
    process.env.SHARD_COUNT = '3';
    process.env.LEASE_SHARDS = '1024';
    resetEnvCache();
    expect(() => env()).toThrow(/LEASE_SHARDS must be a multiple of SHARD_COUNT/);
    process.env.LEASE_SHARDS = '1023';
    resetEnvCache();
    expect(env()).toMatchObject({ SHARD_COUNT: 3, LEASE_SHARDS: 1023 });
  });

  it('the cloud stack’s lease shards: about 1024, a multiple of any queue count it allows', () => {
    for (let q = 1; q <= 64; q++) {
      expect(leaseShardsFor(q) % q).toBe(0);
      expect(leaseShardsFor(q)).toBeGreaterThan(1024 - q);
    }
    expect(leaseShardsFor(4)).toBe(1024);
  });
});
