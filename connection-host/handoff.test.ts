import { mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { must } from '#shared/must';
import { EventSpool, type HandoffMedia } from './event-spool.ts';
import { Handoff } from './handoff.ts';

const quiet = logger.child({}, { level: 'silent' });

const inbound = (id: string, mediaKey?: string): HostEvent => ({
  kind: 'message.inbound',
  tenantId: 't1',
  sessionId: 's1',
  at: 1,
  message: {
    id,
    chatId: '14155550100',
    senderPhone: '14155550100',
    kind: 'text',
    text: id,
    timestampMs: 1,
    mediaKey,
  },
});

/**
 * The events queue and the bucket as the hand-off sees them, on a virtual clock: a retry's wait
 * moves the clock instead of passing, so a 30 s outage takes no wall time.
 */
function outage(untilMs: number) {
  const world = {
    now: 0,
    sent: [] as string[],
    stored: [] as string[],
    waits: [] as number[],
    mediaFailures: 1,
    down: true,
  };
  const idOf = (e: HostEvent) => (e.kind === 'message.inbound' ? e.message.id : e.kind);
  const deps = {
    log: quiet,
    async send(e: HostEvent) {
      if (world.down && world.now < untilMs) throw new Error('events queue unreachable');
      world.sent.push(idOf(e));
    },
    async putMedia(m: HandoffMedia) {
      if (world.mediaFailures-- > 0) throw new Error('S3 refused the upload');
      world.stored.push(m.key);
    },
    async sleep(ms: number) {
      world.waits.push(ms);
      world.now += ms;
    },
  };
  return { world, deps };
}

describe('Handoff', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'spool-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const files = async () => {
    const out: string[] = [];
    for (const d of await readdir(root)) out.push(...(await readdir(path.join(root, d))));
    return out;
  };
  /** The one process folder an opened spool made under root. */
  const spoolDir = async () => must((await readdir(root))[0], 'the spool folder');

  it('loses nothing in a 30 s events-queue outage and a failed upload: spooled, retried, handed on in order', async () => {
    const { world, deps } = outage(30_000);
    const handoff = new Handoff({ ...deps, spool: new EventSpool(root) });
    await handoff.start();
    const media = (id: string) => ({
      key: `media/${id}`,
      bytes: new Uint8Array([1, 2, 3]),
      mimetype: 'image/png',
    });
    // Each resolves once the event is safe: on the queue or on disk.
    for (let i = 0; i < 20; i++) {
      const id = `M${i}`;
      await handoff.deliver(
        inbound(id, i % 5 === 0 ? `media/${id}` : undefined),
        i % 5 === 0 ? media(id) : undefined,
      );
    }
    await handoff.idle();

    expect(world.now).toBeGreaterThanOrEqual(30_000);
    expect(world.sent).toEqual(Array.from({ length: 20 }, (_, i) => `M${i}`));
    expect(world.stored).toEqual(['media/M0', 'media/M5', 'media/M10', 'media/M15']);
    // One retry loop for the whole outage, each wait within the cap.
    expect(Math.max(...world.waits)).toBeLessThanOrEqual(5_000);
    expect(await files()).toEqual([]);
    expect(handoff.backlog).toBe(0);
  });

  it('keeps spooled bodies readable by the service user only', async () => {
    const spool = new EventSpool(root);
    await spool.open();
    await spool.put({
      event: inbound('A'),
      media: { key: 'k', bytes: new Uint8Array([1]), mimetype: 'image/png' },
    });
    const dir = await spoolDir();
    expect((await stat(path.join(root, dir))).mode & 0o777).toBe(0o700);
    for (const f of await files()) expect((await stat(path.join(root, dir, f))).mode & 0o777).toBe(0o600);
  });

  it('sends straight on when the queue takes it, writing nothing to disk', async () => {
    const { world, deps } = outage(0);
    world.mediaFailures = 0;
    const handoff = new Handoff({ ...deps, spool: new EventSpool(root) });
    await handoff.start();
    await handoff.deliver(inbound('A'));
    expect(world.sent).toEqual(['A']);
    expect(await files()).toEqual([]);
  });

  it('hands on at start what a run that ended mid-outage left in the spool, its media too', async () => {
    const first = outage(Number.POSITIVE_INFINITY);
    first.world.mediaFailures = 0;
    let crashed = false;
    const crashing = new Handoff({
      ...first.deps,
      spool: new EventSpool(root),
      // The process dies during its first wait: the retry loop never comes back.
      sleep: () => {
        crashed = true;
        return new Promise<never>(() => {});
      },
    });
    await crashing.start();
    await crashing.deliver(inbound('A'));
    await crashing.deliver(inbound('B', 'media/B'), {
      key: 'media/B',
      bytes: new Uint8Array([9]),
      mimetype: 'image/png',
    });
    expect(crashed).toBe(true);
    // The folder of the process that died (a pid no process has).
    await rename(path.join(root, await spoolDir()), path.join(root, `${hostname()}-2147483646`));

    const next = outage(0);
    next.world.mediaFailures = 0;
    const restarted = new Handoff({ ...next.deps, spool: new EventSpool(root) });
    await restarted.start();
    await restarted.idle();
    expect(next.world.sent).toEqual(['A', 'B']);
    expect(next.world.stored).toEqual(['media/B']);
    expect(await files()).toEqual([]);
    expect(await readdir(root)).toEqual([`${hostname()}-${process.pid}`]);
  });

  it('leaves the folder of a live process alone', async () => {
    const live = path.join(root, `${hostname()}-${process.ppid}`);
    const spool = new EventSpool(root);
    await spool.open();
    await rename(path.join(root, await spoolDir()), live);
    await writeFile(
      path.join(live, '000000000000001-1-000000000.json'),
      JSON.stringify({ event: inbound('X') }),
    );
    const { world, deps } = outage(0);
    const handoff = new Handoff({ ...deps, spool: new EventSpool(root) });
    await handoff.start();
    await handoff.idle();
    expect(world.sent).toEqual([]);
  });

  it('sets an unreadable entry aside and hands on the rest', async () => {
    const spool = new EventSpool(root);
    await spool.open();
    await spool.put({ event: inbound('A') });
    await writeFile(path.join(root, await spoolDir(), '000000000000000-1-000000000.json'), '{not json');
    const { world, deps } = outage(0);
    const handoff = new Handoff({ ...deps, spool: new EventSpool(root) });
    await handoff.start();
    await handoff.idle();
    expect(world.sent).toEqual(['A']);
    expect(await files()).toEqual(['000000000000000-1-000000000.bad']);
  });

  it('does not wait on a request that hangs: spooled after the attempt bound, handed on once one answers', async () => {
    const sent: string[] = [];
    let calls = 0;
    const handoff = new Handoff({
      log: quiet,
      attemptTimeoutMs: 50,
      retryDelay: () => 10,
      // The first three requests never answer (a partition); later ones go through.
      send: (e) => (++calls <= 3 ? new Promise<never>(() => {}) : Promise.resolve(void sent.push(e.kind))),
      putMedia: async () => {},
      spool: new EventSpool(root),
    });
    await handoff.start();
    await handoff.deliver(inbound('A'));
    await handoff.idle();
    expect(sent).toEqual(['message.inbound']);
    expect(calls).toBe(4);
    expect(await files()).toEqual([]);
  });

  it('keeps entries in memory when the disk refuses them, and still hands them on', async () => {
    const { world, deps } = outage(10_000);
    await writeFile(path.join(root, 'file'), '');
    // A spool under a regular file cannot be created.
    const handoff = new Handoff({ ...deps, spool: new EventSpool(path.join(root, 'file')) });
    await handoff.start();
    await handoff.deliver(inbound('A'));
    await handoff.deliver(inbound('B'));
    await handoff.idle();
    expect(world.sent).toEqual(['A', 'B']);
  });
});
