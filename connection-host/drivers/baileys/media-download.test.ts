import type { WAMessage } from '@whiskeysockets/baileys';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchMedia, type MediaSource } from './media-download.ts';

const message = { key: { id: 'M1' }, message: {} } as WAMessage;
const bytes = new Uint8Array([1, 2, 3]);
/** Baileys' download error for a CDN answer: a Boom, the status in `output.statusCode`. */
const cdnError = (statusCode: number) =>
  Object.assign(new Error('Failed to fetch stream from https://mmg.example.net/x'), {
    output: { statusCode },
  });

describe('fetchMedia', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the bytes of a download that works', async () => {
    const source: MediaSource = { download: async () => bytes, reupload: vi.fn() };
    await expect(fetchMedia(message, source, 1000)).resolves.toEqual({ bytes });
    expect(source.reupload).not.toHaveBeenCalled();
  });

  it('a hung download that ignores its abort signal is given up at the bound: media missing', async () => {
    let aborted = false;
    const source: MediaSource = {
      download: (_m, signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => {}); // never settles, as Baileys' download on a stalled stream
      },
      reupload: vi.fn(),
    };
    const outcome = fetchMedia(message, source, 60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(outcome).resolves.toEqual({ missing: 'the media did not arrive within 60 s' });
    expect(aborted).toBe(true);
  });

  it('expired media (404) is asked of the phone again, then downloaded from the re-upload', async () => {
    const fresh = { ...message, message: { imageMessage: { directPath: '/fresh' } } } as WAMessage;
    const download = vi.fn(async (m: WAMessage) => {
      if (m === message) throw cdnError(404);
      return bytes;
    });
    const reupload = vi.fn(async () => fresh);
    await expect(fetchMedia(message, { download, reupload }, 1000)).resolves.toEqual({ bytes });
    expect(reupload).toHaveBeenCalledWith(message);
    expect(download).toHaveBeenLastCalledWith(fresh, expect.any(AbortSignal));
  });

  it('a phone that never answers the re-upload request still ends at the bound', async () => {
    const source: MediaSource = {
      download: async () => {
        throw cdnError(410);
      },
      reupload: () => new Promise(() => {}),
    };
    const outcome = fetchMedia(message, source, 5000);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(outcome).resolves.toEqual({ missing: 'the media did not arrive within 5 s' });
  });

  it('another failure is not retried: media missing with the reason', async () => {
    const reupload = vi.fn();
    const source: MediaSource = {
      download: async () => {
        throw cdnError(500);
      },
      reupload,
    };
    await expect(fetchMedia(message, source, 1000)).resolves.toEqual({
      missing: 'the download failed: Failed to fetch stream from https://mmg.example.net/x',
    });
    expect(reupload).not.toHaveBeenCalled();
  });
});
