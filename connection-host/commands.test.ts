import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '#shared/commands/types';
import type { HostEvent } from '#shared/events/types';
import type { CommandContext } from './commands.ts';
import { handDriver } from './drivers/hand-driver.ts';
import { SessionRuntime } from './session-runtime.ts';

// The done markers, in memory instead of the data table.
const done = vi.hoisted(() => new Set<string>());
vi.mock('#shared/store/tables', () => ({
  dataTable: {
    get: async (key: { pk: string }) => (done.has(key.pk) ? key : undefined),
    put: async (item: { pk: string }) => {
      done.add(item.pk);
    },
  },
}));

const { applyCommand } = await import('./commands.ts');

const send = (n: number): Command => ({
  kind: 'send',
  commandId: `cmd-${n}`,
  tenantId: 't1',
  sessionId: 's1',
  issuedAt: 1,
  messageId: `M${n}`,
  to: '14155550100',
  content: { kind: 'text', text: `message ${n}` },
});

describe('applyCommand while the session is not READY', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    done.clear();
  });
  afterEach(() => vi.useRealTimers());

  function setup(holds = async () => true) {
    const net = handDriver();
    const emitted: HostEvent[] = [];
    const rt = new SessionRuntime({ tenantId: 't1', sessionId: 's1', method: 'qr' }, net.driver, {
      stillHolds: holds,
      maxFailures: 3,
      zombieIdleMs: 60_000,
      sendIntervalMs: 0,
      reconnectBaseMs: 1000,
      reconnectMaxDelayMs: 30_000,
      fence: () => 1,
      emitEvent: async (e) => {
        emitted.push(e);
      },
    });
    const ctx: CommandContext = {
      runtimeFor: async () => rt,
      forget: () => {},
      logoutUnlinked: async () => {},
      reconnect: async () => {},
    };
    const statuses = (id: string) =>
      emitted.flatMap((e) => (e.kind === 'message.status' && e.messageId === id ? [e.status] : []));
    return { net, rt, ctx, statuses };
  }

  it('sends a backlog queued through 10 minutes without READY once READY comes: none failed, none dropped', async () => {
    const { net, rt, ctx, statuses } = setup();
    await rt.start();
    // Commands of one session run one after another (its FIFO group): the first waits, the rest queue.
    const outcomes: unknown[] = [];
    const backlog = (async () => {
      for (let n = 1; n <= 5; n++)
        await applyCommand(send(n), ctx).then(
          () => outcomes.push('ok'),
          (err: Error) => outcomes.push(err),
        );
    })();
    const tenMinutes = Date.now() + 10 * 60_000;
    while (Date.now() < tenMinutes) {
      net.latest().onClose({ kind: 'transient', reason: 'connection lost (428)' });
      await vi.advanceTimersByTimeAsync(30_000);
    }
    expect(outcomes).toEqual([]);
    expect(rt.waitingForReady).toBe(1);

    net.latest().onOpen({ mobile: '1' });
    await vi.advanceTimersByTimeAsync(0);
    await backlog;

    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(net.links.at(-1)?.sent).toEqual(['M1', 'M2', 'M3', 'M4', 'M5']);
    for (let n = 1; n <= 5; n++) expect(statuses(`M${n}`)).toEqual(['sent']);
    expect(done.size).toBe(5);
    expect(rt.waitingForReady).toBe(0);
    await rt.stop();
  });

  it('reports a send failed, with the reason, once the session has ended for good: done, not retried', async () => {
    const { net, rt, ctx, statuses } = setup();
    await rt.start();
    const pending = applyCommand(send(1), ctx);
    net.latest().onClose({ kind: 'logged_out', reason: 'device logged out (401)' });
    await vi.advanceTimersByTimeAsync(0);
    await expect(pending).resolves.toBeUndefined();
    expect(statuses('M1')).toEqual(['failed']);
    expect(done.has('CMDDONE#cmd-1')).toBe(true);
    expect(net.links[0]?.sent).toEqual([]);
  });

  it('gives a wait up when the consumer stops: the command returns to the queue, nothing reported', async () => {
    const { rt, ctx, statuses } = setup();
    await rt.start();
    const abort = new AbortController();
    const pending = applyCommand(send(1), ctx, abort.signal).catch((err: Error) => err);
    await vi.advanceTimersByTimeAsync(60_000);
    abort.abort(new Error('shard 0 is being let go'));
    expect(await pending).toHaveProperty('message', 'shard 0 is being let go');
    expect(statuses('M1')).toEqual([]);
    expect(done.size).toBe(0);
    expect(rt.waitingForReady).toBe(0);
    await rt.stop();
  });

  it('refuses a send once another host has claimed the session (a later epoch): nothing sent, the command returns to the queue', async () => {
    let holds = true;
    const { net, rt, ctx, statuses } = setup(async () => holds);
    await rt.start();
    net.latest().onOpen({ mobile: '1' });
    await vi.advanceTimersByTimeAsync(0);
    await applyCommand(send(1), ctx);
    holds = false;
    const { SessionMovedError } = await import('./commands.ts');
    await expect(applyCommand(send(2), ctx)).rejects.toBeInstanceOf(SessionMovedError);
    expect(net.links[0]?.sent).toEqual(['M1']);
    expect(statuses('M2')).toEqual([]);
    expect(done.has('CMDDONE#cmd-2')).toBe(false);
    await rt.stop();
  });
});
