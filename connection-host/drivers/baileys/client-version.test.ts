import type { WAVersion } from '@whiskeysockets/baileys';
import { describe, expect, it, vi } from 'vitest';
import { ClientVersion } from './client-version.ts';

const newer: WAVersion = [2, 3000, 1099999999];

describe('ClientVersion', () => {
  it('announces Baileys’ built-in version until a 405 makes it look the current one up', async () => {
    const lookup = vi.fn(async () => newer);
    const v = new ClientVersion({ lookup });
    expect(v.current).toBeUndefined();
    expect(await v.refresh()).toEqual(newer);
    expect(v.current).toEqual(newer);
  });

  it('BAILEYS_VERSION overrides: never looked up', async () => {
    const lookup = vi.fn(async () => newer);
    const pinned: WAVersion = [2, 3000, 1];
    const v = new ClientVersion({ pinned, lookup });
    expect(await v.refresh()).toEqual(pinned);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('many sessions refused at once share one lookup, and a second wave within the interval none', async () => {
    let answer: (v: WAVersion) => void = () => {};
    const lookup = vi.fn(() => new Promise<WAVersion>((r) => (answer = r)));
    const v = new ClientVersion({ lookup, minIntervalMs: 60_000 });
    const all = Promise.all([v.refresh(), v.refresh(), v.refresh()]);
    answer(newer);
    expect(await all).toEqual([newer, newer, newer]);
    await v.refresh();
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('a lookup that hangs and ignores its signal is given up after the timeout', async () => {
    const v = new ClientVersion({ lookup: () => new Promise(() => {}), timeoutMs: 50 });
    const started = Date.now();
    expect(await v.refresh()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
