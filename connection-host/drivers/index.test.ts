import { describe, expect, it } from 'vitest';
import { createDriver } from './index.ts';

describe('createDriver', () => {
  it('refuses the simulated driver: it is not part of the host (local mode injects it)', async () => {
    await expect(createDriver('simulator', { getMessage: async () => undefined })).rejects.toThrow(
      /not built into the connection host.*scripts\/local\/host-process\.ts/,
    );
  });
});
