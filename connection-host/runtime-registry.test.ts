import { describe, expect, it } from 'vitest';
import type { HostEvent } from '#shared/events/types';
import type { Session } from '#shared/sessions/session';
import type { DriverEvents, DriverLink, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { RuntimeRegistry } from './runtime-registry.ts';

const session = (over: Partial<Session> = {}): Session => ({
  tenantId: 't1',
  sessionId: 's1',
  mobid: '100000000000000',
  method: 'qr',
  status: 'READY',
  dbStatus: 'active',
  shard: 0,
  createdAt: '',
  updatedAt: '',
  stateAt: 0,
  ...over,
});

/** A host's registry over a driver whose links the test ends by hand. */
function host(stored: () => Session | undefined, reconnectBaseMs = 60_000) {
  const links: Array<{ events: DriverEvents; closed: boolean }> = [];
  const driver: NetworkDriver = {
    name: 'simulator',
    async connect(_request: LinkRequest, events: DriverEvents) {
      const entry = { events, closed: false };
      links.push(entry);
      return {
        close: async () => {
          entry.closed = true;
        },
      } as unknown as DriverLink;
    },
    async clearAuth() {},
  };
  const emitted: HostEvent[] = [];
  const registry = new RuntimeRegistry({
    driver,
    shardCount: 1,
    lease: (shard) => ({ shard, owner: 'h1', fence: 3 }),
    fence: { claim: async () => true, holds: async () => true },
    runtime: {
      maxFailures: 2,
      zombieIdleMs: 60_000,
      sendIntervalMs: 0,
      reconnectBaseMs,
      stillHolds: async () => true,
      emitEvent: async (e) => {
        emitted.push(e);
      },
      recordReconnect: async () => {},
    },
    readSession: async () => stored(),
    emitEvent: async () => {},
  });
  const statuses = () => emitted.flatMap((e) => (e.kind === 'session.status' ? [e.status] : []));
  return { registry, links, statuses };
}

const ref = { tenantId: 't1', sessionId: 's1' };
const settle = () => new Promise((r) => setTimeout(r, 10));

describe('runtime registry', () => {
  it('forgets a runtime that ended for good: a later connect makes a fresh one that links again', async () => {
    const { registry, links, statuses } = host(() => session());
    const first = await registry.runtimeFor(ref, true);
    expect(links).toHaveLength(1);
    links[0]?.events.onClose({ kind: 'fatal', code: 403, reason: 'banned (403)' });
    await settle();
    expect(statuses()).toEqual(['FAILED']);
    expect(registry.get('s1')).toBeUndefined();

    const second = await registry.runtimeFor(ref, true);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(links).toHaveLength(2);
    await registry.stopAll();
  });

  it('reconnect drops a live link and links again at once, and brings an ended session back', async () => {
    let stored = session();
    const { registry, links } = host(() => stored);
    const rt = await registry.runtimeFor(ref, true);
    links[0]?.events.onOpen({ mobile: '1' });
    // A transient close waits a minute (RECONNECT_BASE_MS here) before the next attempt…
    links[0]?.events.onClose({ kind: 'transient', code: 500, reason: 'stream error (500)' });
    await settle();
    expect(links).toHaveLength(1);
    // …which a reconnect skips.
    await registry.reconnect(ref);
    expect(links).toHaveLength(2);
    expect(registry.get('s1')).toBe(rt);
    expect(rt?.reconnectAttempt).toBe(0);

    await registry.reconnect(ref);
    expect(links[1]?.closed).toBe(true);
    expect(links).toHaveLength(3);

    // Banned: FAILED, gone from the registry; a reconnect starts a new runtime that links again.
    links.at(-1)?.events.onClose({ kind: 'fatal', code: 403, reason: 'banned (403)' });
    await settle();
    expect(registry.get('s1')).toBeUndefined();
    stored = session({ status: 'FAILED' });
    const before = links.length;
    await registry.reconnect(ref);
    expect(links).toHaveLength(before + 1);
    expect(registry.get('s1')).toBeDefined();
    expect(registry.get('s1')).not.toBe(rt);

    // Logged out: nothing to link with.
    stored = session({ status: 'LOGGED_OUT' });
    await expect(registry.reconnect(ref)).rejects.toThrow(/linked again/);
    await registry.stopAll();
  });

  it('a session replaced again and again leaves as DISCONNECTED; a reconnect brings it back', async () => {
    let stored = session();
    const { registry, links, statuses } = host(() => stored, 10);
    await registry.runtimeFor(ref, true);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      links.at(-1)?.events.onClose({ kind: 'replaced', code: 440, reason: 'replaced (440)' });
    }
    await settle();
    expect(links).toHaveLength(3);
    expect(statuses().at(-1)).toBe('DISCONNECTED');
    expect(registry.get('s1')).toBeUndefined();
    stored = session({ status: 'DISCONNECTED' });
    await registry.reconnect(ref);
    expect(links).toHaveLength(4);
    expect(registry.get('s1')?.done).toBe(false);
    await registry.stopAll();
  });
});
