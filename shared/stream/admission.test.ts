import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env.ts';
import { RateLimitedError, statusOf } from '../http/errors.ts';
import { admitStream, openStreams, STREAM_RETRY_AFTER_S } from './admission.ts';

const releases: Array<() => void> = [];
afterEach(() => {
  for (const r of releases.splice(0)) r();
  delete process.env.SSE_MAX_CONNECTIONS;
  delete process.env.SSE_MAX_CONNECTIONS_PER_TENANT;
  resetEnvCache();
});

function caps(total: number, perTenant: number) {
  process.env.SSE_MAX_CONNECTIONS = String(total);
  process.env.SSE_MAX_CONNECTIONS_PER_TENANT = String(perTenant);
  resetEnvCache();
}

const admit = (tenantId: string) => {
  const release = admitStream(tenantId);
  releases.push(release);
  return release;
};

describe('admitStream', () => {
  it('refuses a tenant over its cap with 429 and Retry-After, while another tenant still gets in', () => {
    caps(10, 2);
    admit('a');
    admit('a');
    const refused = (() => {
      try {
        admit('a');
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(RateLimitedError);
    const e = refused as RateLimitedError;
    expect(statusOf(e.code)).toBe(429);
    expect(e.details?.retryAfterSeconds).toBe(STREAM_RETRY_AFTER_S);
    expect(e.message).toContain('SSE_MAX_CONNECTIONS_PER_TENANT');
    admit('b');
    expect(openStreams('a')).toBe(2);
    expect(openStreams()).toBe(3);
  });

  it('refuses everyone over the overall cap', () => {
    caps(3, 2);
    admit('a');
    admit('b');
    admit('c');
    expect(() => admit('d')).toThrow(/SSE_MAX_CONNECTIONS\)/);
  });

  it('a released stream makes room, once however often it is released', () => {
    caps(10, 1);
    const release = admit('a');
    expect(() => admit('a')).toThrow(RateLimitedError);
    release();
    release();
    expect(openStreams('a')).toBe(0);
    expect(openStreams()).toBe(0);
    admit('a');
    expect(openStreams()).toBe(1);
  });
});
