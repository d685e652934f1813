import { describe, expect, it, vi } from 'vitest';
import { logger } from '#shared/log/logger';
import type { Session } from '#shared/sessions/session';
import type { DriverLink, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { RuntimeRegistry } from './runtime-registry.ts';
import { RESUME_PARALLEL, resumeShard } from './shard-resume.ts';

const session = (sessionId: string, over: Partial<Session> = {}): Session => ({
  tenantId: 't1',
  sessionId,
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

function fakeDriver() {
  const connected: string[] = [];
  const driver: NetworkDriver = {
    name: 'simulator',
    async connect(request: LinkRequest) {
      connected.push(request.sessionId);
      return { close: async () => {} } as unknown as DriverLink;
    },
    async clearAuth() {},
  };
  return { driver, connected };
}

/** A host's registry and a session store that counts reads, as a shard takeover sees them. */
function takeover(listed: Session[], table: Map<string, Session | Error>) {
  const { driver, connected } = fakeDriver();
  const reads: string[] = [];
  const read = async (_tenantId: string, sessionId: string) => {
    reads.push(sessionId);
    const row = table.get(sessionId);
    if (row instanceof Error) throw row;
    return row;
  };
  const registry = new RuntimeRegistry({
    driver,
    shardCount: 1,
    lease: (shard) => ({ shard, owner: 'h1', fence: 3 }),
    fence: { claim: async () => true, holds: async () => true },
    runtime: { maxFailures: 1, zombieIdleMs: 60_000, sendIntervalMs: 0, reconnectBaseMs: 1000 },
    readSession: read,
    emitEvent: async () => {},
  });
  const resume = () =>
    resumeShard(0, registry, logger, { listShardSessions: async () => listed, getSession: read });
  return { registry, resume, reads, connected };
}

describe('shard takeover', () => {
  it('reads each listed session once and resumes only those still active and linked', async () => {
    const listed = ['ready', 'logged-out', 'replaced', 'deleted-since', 'deleted'].map((id) => session(id));
    listed[4] = session('deleted', { dbStatus: 'inactive' });
    // What the table says now; the index above is a moment behind it.
    const table = new Map<string, Session | Error>([
      ['ready', session('ready')],
      ['logged-out', session('logged-out', { status: 'LOGGED_OUT' })],
      ['replaced', session('replaced', { status: 'DISCONNECTED' })],
      ['deleted-since', session('deleted-since', { dbStatus: 'inactive' })],
      ['deleted', session('deleted', { dbStatus: 'inactive' })],
    ]);
    const { registry, resume, reads, connected } = takeover(listed, table);

    await resume();

    // A session the index lists deleted is not read at all: deletion is never undone.
    expect(reads).toEqual(['ready', 'logged-out', 'replaced', 'deleted-since']);
    expect(connected).toEqual(['ready']);
    expect(registry.get('ready')?.request).toEqual({
      tenantId: 't1',
      sessionId: 'ready',
      method: 'qr',
      phoneNumber: undefined,
      lease: { shard: 0, owner: 'h1', fence: 3 },
    });
    await registry.stopAll();
  });

  it('trusts the consistent read over the index', async () => {
    const listed = [session('a', { status: 'LOGGED_OUT' })];
    const table = new Map<string, Session | Error>([['a', session('a', { status: 'READY' })]]);
    const { registry, resume, reads, connected } = takeover(listed, table);
    await resume();
    expect(reads).toEqual(['a']);
    expect(connected).toEqual(['a']);
    await registry.stopAll();
  });

  it('goes on with the other sessions when one cannot be read', async () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const listed = [session('a'), session('b')];
    const table = new Map<string, Session | Error>([
      ['a', new Error('throttled')],
      ['b', session('b')],
    ]);
    const { registry, resume, connected } = takeover(listed, table);
    await resume();
    expect(connected).toEqual(['b']);
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 'a' }), 'resume failed');
    error.mockRestore();
    await registry.stopAll();
  });

  it('shares one runtime between a resume and a command for the same session', async () => {
    const table = new Map<string, Session | Error>([['a', session('a')]]);
    const { registry, resume, connected } = takeover([session('a')], table);
    const [fromCommand] = await Promise.all([
      registry.runtimeFor({ tenantId: 't1', sessionId: 'a' }, true),
      resume(),
    ]);
    expect(connected).toEqual(['a']);
    expect(registry.get('a')).toBe(fromCommand);
    await registry.stopAll();
  });

  it(`starts a shard's sessions ${RESUME_PARALLEL} at a time, every one of them`, async () => {
    const listed = Array.from({ length: 10 }, (_, i) => session(`s${i}`));
    let running = 0;
    let most = 0;
    const started: string[] = [];
    const registry = {
      shardOf: () => 0,
      holdsShard: () => true,
      runtimeFor: async (ref: { sessionId: string }) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        started.push(ref.sessionId);
        running--;
        return undefined;
      },
    };
    await resumeShard(0, registry, logger, {
      listShardSessions: async () => listed,
      getSession: async (_t, id) => listed.find((l) => l.sessionId === id),
    });
    expect(most).toBe(RESUME_PARALLEL);
    expect(started.sort()).toEqual(listed.map((l) => l.sessionId).sort());
  });
});
