import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FULL_READ_EVERY,
  PlanReads,
  type PlanSignals,
  WATCH_ALL_UP_TO,
  WATCHED,
  watchedCount,
} from './plan-reads.ts';

/** Plan signals held in memory: a version and each host's heartbeat expiry. */
function signals() {
  const state = { version: 1, expiry: new Map<string, number | undefined>(), expiryReads: 0 };
  const s: PlanSignals = {
    version: async () => state.version,
    bump: async () => ++state.version,
    expiries: async (ids) => {
      state.expiryReads++;
      return new Map(ids.map((id) => [id, state.expiry.get(id)]));
    },
  };
  return { state, s };
}

/** Ticks until `due` asks for a read; the number of ticks that read nothing. */
async function quietTicks(reads: PlanReads, max = 100): Promise<number> {
  for (let n = 0; n < max; n++) if (await reads.due()) return n;
  return max;
}

describe('when a host reads the leases and heartbeats', () => {
  afterEach(() => vi.useRealTimers());

  it('reads at first, then not while nothing moved, then every FULL_READ_EVERY ticks or a little more', async () => {
    const { state, s } = signals();
    const reads = new PlanReads('h-b', s, () => 0);
    expect(await reads.due()).toEqual({ why: 'unsettled', version: 1 });
    reads.read(1, ['h-a', 'h-b', 'h-c'], true);
    for (const id of ['h-a', 'h-c']) state.expiry.set(id, Date.now() + 60_000);
    // With no jitter (random 0): the periodic read comes on tick FULL_READ_EVERY.
    expect(await quietTicks(reads)).toBe(FULL_READ_EVERY - 1);
    const jittered = new PlanReads('h-b', s, () => 0.99);
    jittered.read(1, ['h-a', 'h-b', 'h-c'], true);
    expect(await quietTicks(jittered)).toBe(FULL_READ_EVERY + Math.floor(0.99 * (FULL_READ_EVERY / 2)) - 1);
  });

  it('reads on the next tick when the version moved, and not for its own bump', async () => {
    const { state, s } = signals();
    const reads = new PlanReads('h-a', s, () => 0);
    reads.read(1, ['h-a'], true);
    expect(await reads.due()).toBeUndefined();
    // Its own change: the version it bumped is the one it knows.
    await reads.changed();
    expect(await reads.due()).toBeUndefined();
    // Another host's change.
    state.version++;
    expect(await reads.due()).toEqual({ why: 'version', version: state.version });
  });

  it('reads again while the last read left something in motion', async () => {
    const { s } = signals();
    const reads = new PlanReads('h-a', s, () => 0);
    reads.read(1, ['h-a'], false);
    expect((await reads.due())?.why).toBe('unsettled');
    reads.read(1, ['h-a'], true);
    expect(await reads.due()).toBeUndefined();
    reads.markDirty();
    expect((await reads.due())?.why).toBe('unsettled');
  });

  it(`in a cluster of more than ${WATCH_ALL_UP_TO}, watches the next ${WATCHED} hosts by id (wrapping round) and reads when one of them is dead or gone`, async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { state, s } = signals();
    const reads = new PlanReads('h-i', s, () => 0);
    const hosts = 'abcdefghij'.split('').map((c) => `h-${c}`);
    reads.read(1, hosts, true);
    for (const id of hosts) if (id !== 'h-i') state.expiry.set(id, Date.now() + 15_000);
    expect(await reads.due()).toBeUndefined();
    // h-b is not watched by h-i (h-j and then h-a are): its heartbeat running out is not h-i's to see.
    state.expiry.set('h-b', Date.now() - 1);
    expect(await reads.due()).toBeUndefined();
    // A watched host that missed its beat: a look is due the moment it runs out.
    const last = state.expiry.get('h-j') ?? 0;
    expect(await reads.due()).toBeUndefined();
    expect(reads.wakeAt()).toBe(last + 1);
    vi.setSystemTime(last + 1);
    expect((await reads.due())?.why).toBe('dead host');
    // A watched host whose heartbeat is gone (it left) is news too.
    reads.read(state.version, hosts, true);
    state.expiry.set('h-j', Date.now() + 15_000);
    state.expiry.set('h-a', undefined);
    expect((await reads.due())?.why).toBe('dead host');
  });

  it(`in a cluster of up to ${WATCH_ALL_UP_TO}, watches every other host: each sees any of them die`, async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { state, s } = signals();
    const reads = new PlanReads('h-c', s, () => 0);
    const hosts = ['h-a', 'h-b', 'h-c', 'h-d'];
    reads.read(1, hosts, true);
    for (const id of ['h-a', 'h-b', 'h-d']) state.expiry.set(id, Date.now() + 15_000);
    expect(await reads.due()).toBeUndefined();
    state.expiry.set('h-b', Date.now() - 1);
    expect((await reads.due())?.why).toBe('dead host');
    expect([1, 2, 4, 8, 9, 1000].map(watchedCount)).toEqual([0, 1, 3, 7, WATCHED, WATCHED]);
  });

  it('reads no heartbeat when it is the only host', async () => {
    const { state, s } = signals();
    const reads = new PlanReads('h-a', s, () => 0);
    reads.read(1, ['h-a'], true);
    await quietTicks(reads, 5);
    expect(state.expiryReads).toBe(0);
  });
});
