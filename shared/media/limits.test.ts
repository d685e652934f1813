import { describe, expect, it } from 'vitest';
import { UPLOAD_BODY_LIMIT } from '../../functions/api/app.ts';
import { NETWORK_LIMITS } from '../../functions/api/media/upload.ts';
import { DESCRIBE_LIMITS } from '../../functions/media/describe/limits.ts';
import { SIM_DEVICE_BODY_LIMIT } from '../../simulator/routes/body.ts';
import { MEDIA_MAX_BYTES, MiB } from './limits.ts';

describe('the media size cap', () => {
  it('is 64 MiB', () => {
    expect(MEDIA_MAX_BYTES).toBe(64 * MiB);
  });

  it('lets every file the API accepts through every later step', () => {
    // The upload limit of the API bounds every kind; nothing further on refuses a file below it.
    expect(UPLOAD_BODY_LIMIT).toBe(MEDIA_MAX_BYTES);
    expect(Math.max(...Object.values(NETWORK_LIMITS))).toBe(MEDIA_MAX_BYTES);
    expect(DESCRIBE_LIMITS.videoMaxBytes).toBe(MEDIA_MAX_BYTES);
    // The simulated device receives a send's media in base64 inside JSON: 4/3 of it, and room.
    expect(SIM_DEVICE_BODY_LIMIT).toBeGreaterThan((MEDIA_MAX_BYTES * 4) / 3);
  });
});
