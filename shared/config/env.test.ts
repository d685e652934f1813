import { afterEach, describe, expect, it } from 'vitest';
import { leaseShardsFor } from '../sessions/shard.ts';
import { env, resetEnvCache, runtimeEnv } from './env.ts';

const saved = Object.fromEntries(
  ['SHARD_COUNT', 'LEASE_SHARDS', 'AWS_REGION', 'STREAM_BASE_URL'].map((k) => [k, process.env[k]]),
);

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
});

describe('lease shards and command queues', () => {
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

describe('the runtime variables (runtimeEnv)', () => {
  it('reads them as they are now, with the defaults the code used to write beside each read', () => {
    delete process.env.AWS_REGION;
    expect(runtimeEnv().AWS_REGION).toBe('us-east-1');
    process.env.AWS_REGION = 'eu-west-1';
    expect(runtimeEnv().AWS_REGION).toBe('eu-west-1');
    expect(runtimeEnv().npm_package_version).toMatch(/\S/);
  });

  it('refuses a stream address that is no URL rather than sending clients to it', () => {
    process.env.STREAM_BASE_URL = 'not a url';
    expect(() => runtimeEnv()).toThrow(/STREAM_BASE_URL/);
  });

  it('are part of the settings env() checks too', () => {
    process.env.AWS_REGION = 'ap-south-1';
    resetEnvCache();
    expect(env().AWS_REGION).toBe('ap-south-1');
  });
});
