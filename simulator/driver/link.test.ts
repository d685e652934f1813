import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import { fetchFrameMedia } from './link.ts';

describe('fetchFrameMedia (the media URL of a simulated inbound message)', () => {
  // Private targets refused, the default, whatever the process inherited (a combined run's e2e setup
  // allows them).
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    resetEnvCache();
  });
  afterEach(() => {
    if (saved !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = saved;
    resetEnvCache();
  });

  it('goes through the private-address guard: a loopback URL is never fetched and the message keeps no media', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('secret');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await fetchFrameMedia(`http://127.0.0.1:${port}/media`, 'image/png')).toBeUndefined();
      expect(await fetchFrameMedia(`http://169.254.169.254/latest/meta-data/`)).toBeUndefined();
      expect(requests).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
