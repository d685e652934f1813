import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LidCache } from '#shared/contacts/lid-cache';
import type { HostEvent } from '#shared/events/types';
import { must } from '#shared/must';
import type { ReconnectState } from '#shared/sessions/session';
import type { DriverEvents, DriverLink, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { RuntimeStoppedError, SessionEndedError } from './ready-waiters.ts';
import { MAX_REPLACED } from './reconnect-policy.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { SessionRuntime } from './session-runtime.ts';

// The backoff formula is tested on its own; here a plain doubling shows which attempt the runtime asks for.
vi.mock('./backoff.ts', () => ({
  reconnectDelay: (retry: number, baseMs: number) => baseMs * 2 ** retry,
  emitRetryDelay: (retry: number) => Math.min(5_000, 200 * 2 ** retry),
}));

const BASE_MS = 1000;

function fakeLink() {
  return {
    send: vi.fn(async () => {}),
    presence: vi.fn(async () => {}),
    react: vi.fn(async () => {}),
    read: vi.fn(async () => {}),
    pin: vi.fn(async () => {}),
    checkNumbers: vi.fn(async () => []),
    edit: vi.fn(async () => {}),
    revoke: vi.fn(async () => {}),
    postStatus: vi.fn(async () => {}),
    groupAction: vi.fn(async () => ({})),
    rejectCall: vi.fn(async () => {}),
    probe: vi.fn(async () => {}),
    logout: vi.fn(async () => {}),
    close: vi.fn(async () => {}),
  } satisfies DriverLink;
}

/** A driver whose links the test drives by hand through the events each connect was given. */
class FakeDriver implements NetworkDriver {
  readonly name = 'simulator';
  readonly connects: Array<{
    request: LinkRequest;
    events: DriverEvents;
    link: ReturnType<typeof fakeLink>;
  }> = [];
  readonly cleared: string[] = [];
  refuseConnects = 0;

  async connect(request: LinkRequest, events: DriverEvents): Promise<DriverLink> {
    if (this.refuseConnects > 0) {
      this.refuseConnects--;
      throw new Error('socket refused');
    }
    const link = fakeLink();
    this.connects.push({ request, events, link });
    return link;
  }

  async clearAuth(sessionId: string): Promise<void> {
    this.cleared.push(sessionId);
  }

  /** The events of the latest link. */
  get latest(): DriverEvents {
    const c = this.connects.at(-1);
    if (!c) throw new Error('never connected');
    return c.events;
  }
}

const request: LinkRequest = { tenantId: 't1', sessionId: 's1', method: 'qr' };

function setup(opts: Partial<RuntimeOptions> = {}) {
  const driver = new FakeDriver();
  const emitted: HostEvent[] = [];
  const rt = new SessionRuntime(request, driver, {
    maxFailures: 3,
    zombieIdleMs: 60_000,
    sendIntervalMs: 0,
    reconnectBaseMs: BASE_MS,
    fence: () => 7,
    emitEvent: async (e) => {
      emitted.push(e);
    },
    ...opts,
  });
  const statuses = () =>
    emitted.flatMap((e) => (e.kind === 'session.status' ? [{ status: e.status, reason: e.reason }] : []));
  return { driver, emitted, rt, statuses };
}

/** Lets the runtime's promise chains run without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('SessionRuntime', () => {
  let running: SessionRuntime | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    vi.useRealTimers();
  });

  it('links by QR and reports QR_READY then READY, fenced, and hands the link to waiting senders', async () => {
    const { driver, emitted, rt, statuses } = setup();
    running = rt;
    await rt.start();
    expect(driver.connects.map((c) => c.request)).toEqual([{ ...request, lids: expect.any(LidCache) }]);

    const ready = rt.whenReady(5000);
    driver.latest.onQr('2@qr-text');
    driver.latest.onOpen({ mobile: '14155550100' });
    await settle();

    await expect(ready).resolves.toBe(driver.connects[0]?.link);
    expect(rt.status).toBe('READY');
    expect(statuses().map((s) => s.status)).toEqual(['QR_READY', 'READY']);
    expect(emitted[0]).toMatchObject({ tenantId: 't1', sessionId: 's1', qr: '2@qr-text', fence: 7 });
    expect(emitted[1]).toMatchObject({ status: 'READY', mobile: '14155550100', fence: 7, at: 1_000_000 });
  });

  it('reports a restriction, and its lifting, as session.status with the current status; a repeat once', async () => {
    const { driver, emitted, rt } = setup();
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '14155550100' });
    await settle();
    const lock = { reason: 'reachout_timelock' as const, until: 2_000_000, detail: 'BIZ_QUALITY' };
    driver.latest.onRestriction(lock);
    driver.latest.onRestriction({ ...lock });
    await settle();
    driver.latest.onRestriction(null);
    await settle();
    const reports = emitted.filter((e) => e.kind === 'session.status' && e.restriction !== undefined);
    expect(reports).toEqual([
      expect.objectContaining({ status: 'READY', restriction: lock, fence: 7 }),
      expect.objectContaining({ status: 'READY', restriction: null, fence: 7 }),
    ]);
    expect(rt.restriction).toBeNull();
  });

  it('reports every call step; with rejectCalls it declines a ringing call and reports it rejected by the session', async () => {
    let rejects = false;
    const { driver, emitted, rt } = setup({ rejectsCalls: async () => rejects });
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '14155550100' });
    await settle();
    const link = driver.connects[0]?.link;
    const call = {
      callId: 'C1',
      from: '919800000001',
      video: false,
      group: false,
      status: 'offer' as const,
      timestampMs: 999_000,
    };
    driver.latest.onCall(call);
    await settle();
    expect(link?.rejectCall).not.toHaveBeenCalled();
    rejects = true;
    driver.latest.onCall({ ...call, callId: 'C2' });
    driver.latest.onCall({ ...call, callId: 'G1', group: true }); // group calls ring through
    await settle();
    expect(link?.rejectCall).toHaveBeenCalledTimes(1);
    expect(link?.rejectCall).toHaveBeenCalledWith('C2');
    const calls = emitted.flatMap((e) =>
      e.kind === 'call' ? [[e.call.callId, e.call.status, e.call.bySession]] : [],
    );
    expect(calls).toEqual([
      ['C1', 'offer', undefined],
      ['C2', 'offer', undefined],
      ['G1', 'offer', undefined],
      ['C2', 'rejected', true],
    ]);
  });

  it('reports a pairing code when linking by phone number', async () => {
    const { driver, emitted, rt } = setup();
    running = rt;
    await rt.start();
    driver.latest.onPairingCode('ABCD1234');
    await settle();
    expect(emitted).toEqual([expect.objectContaining({ status: 'PAIRING', pairingCode: 'ABCD1234' })]);
  });

  it('reconnects after a transient close, waiting longer after each failure in a row', async () => {
    const { driver, rt, statuses } = setup();
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();

    driver.latest.onClose({ kind: 'transient', reason: 'connection lost (428)' });
    await settle();
    expect(statuses().at(-1)).toEqual({ status: 'RECONNECTING', reason: 'connection lost (428)' });
    expect(driver.connects).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(BASE_MS - 1);
    expect(driver.connects).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(driver.connects).toHaveLength(2);

    // The second failure in a row waits twice as long.
    driver.latest.onClose({ kind: 'transient', reason: 'again' });
    await vi.advanceTimersByTimeAsync(2 * BASE_MS - 1);
    expect(driver.connects).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(driver.connects).toHaveLength(3);

    // An open link resets the count: the next failure waits the base delay again.
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    driver.latest.onClose({ kind: 'transient', reason: 'once more' });
    await vi.advanceTimersByTimeAsync(BASE_MS);
    expect(driver.connects).toHaveLength(4);
  });

  it('keeps the LIDs revealed on one link for the next: a message from a LID carries its phone', async () => {
    const { driver, emitted, rt } = setup();
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    driver.latest.onLidMapping('123456789012345', '14155550100');
    driver.latest.onClose({ kind: 'transient', reason: 'connection lost (428)' });
    await vi.advanceTimersByTimeAsync(BASE_MS);
    expect(driver.connects).toHaveLength(2);
    // One cache per session, handed to every link's driver rather than one per link.
    expect(driver.connects[1]?.request.lids).toBe(driver.connects[0]?.request.lids);
    expect(driver.connects[1]?.request.lids?.get('123456789012345')).toBe('14155550100');

    driver.latest.onInbound({
      id: 'I1',
      chatId: '123456789012345@lid',
      senderPhone: null,
      senderLid: '123456789012345',
      kind: 'text',
      text: 'hi',
      timestampMs: 1_000_000,
    });
    await settle();
    const inbound = emitted.find((e) => e.kind === 'message.inbound');
    expect(inbound).toMatchObject({ message: { id: 'I1', senderPhone: '14155550100' } });
  });

  it('treats a connect that throws as a transient close', async () => {
    const { driver, rt, statuses } = setup();
    running = rt;
    driver.refuseConnects = 1;
    await rt.start();
    expect(statuses()).toEqual([{ status: 'RECONNECTING', reason: 'connect failed: socket refused' }]);
    await vi.advanceTimersByTimeAsync(BASE_MS);
    expect(driver.connects).toHaveLength(1);
  });

  it('never gives up on transient closes, and shows the attempt in the recorded reconnect state', async () => {
    const recorded: ReconnectState[] = [];
    const { driver, rt, statuses } = setup({
      maxFailures: 2,
      recordReconnect: async (state) => {
        recorded.push(state);
      },
    });
    running = rt;
    await rt.start();
    for (let i = 0; i < 12; i++) {
      driver.latest.onClose({ kind: 'transient', reason: 'stream error (500)', code: 500 });
      await vi.advanceTimersByTimeAsync(BASE_MS * 2 ** i);
    }
    expect(driver.connects).toHaveLength(13);
    expect(statuses().every((s) => s.status === 'RECONNECTING')).toBe(true);
    expect(recorded.at(-1)).toEqual({
      attempt: 12,
      nextRetryAt: expect.any(Number),
      lastDisconnect: { code: 500, reason: 'stream error (500)', at: expect.any(Number) },
    });
    expect(rt.reconnectAttempt).toBe(12);
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    expect(rt.reconnectAttempt).toBe(0);
  });

  it('ends a bad session as FAILED after maxFailures refused logins in a row, and leaves its owner', async () => {
    const ended: SessionRuntime[] = [];
    const { driver, rt, statuses } = setup({ maxFailures: 3, onEnded: (r) => ended.push(r) });
    running = rt;
    await rt.start();
    // Transient closes between refusals do not reset the count; only READY does.
    driver.latest.onClose({ kind: 'refused', reason: 'login refused (405)', code: 405 });
    await vi.advanceTimersByTimeAsync(BASE_MS);
    driver.latest.onClose({ kind: 'transient', reason: 'lost' });
    await vi.advanceTimersByTimeAsync(2 * BASE_MS);
    driver.latest.onClose({ kind: 'refused', reason: 'login refused (405)', code: 405 });
    await vi.advanceTimersByTimeAsync(4 * BASE_MS);
    expect(driver.connects).toHaveLength(4);
    expect(ended).toEqual([]);
    driver.latest.onClose({ kind: 'refused', reason: 'login refused (405)', code: 405 });
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    expect(driver.connects).toHaveLength(4);
    expect(statuses().at(-1)).toEqual({
      status: 'FAILED',
      reason: 'bad session: the network refused 3 logins in a row; last: login refused (405)',
    });
    expect(ended).toEqual([rt]);
    expect(rt.done).toBe(true);
  });

  it('READY between refused logins starts the count again', async () => {
    const { driver, rt, statuses } = setup({ maxFailures: 2 });
    running = rt;
    await rt.start();
    for (let i = 0; i < 5; i++) {
      driver.latest.onClose({ kind: 'refused', reason: 'refused', code: 405 });
      await vi.advanceTimersByTimeAsync(BASE_MS);
      driver.latest.onOpen({ mobile: '1' });
      await settle();
    }
    expect(statuses().some((s) => s.status === 'FAILED')).toBe(false);
  });

  it('reconnects after a 440, but stops fighting another client after being replaced again and again', async () => {
    const ended: SessionRuntime[] = [];
    const { driver, rt, statuses } = setup({ onEnded: (r) => ended.push(r), stillHolds: async () => true });
    running = rt;
    await rt.start();
    for (let i = 0; i < MAX_REPLACED - 1; i++) {
      driver.latest.onOpen({ mobile: '1' });
      await settle();
      driver.latest.onClose({ kind: 'replaced', reason: 'replaced (440)', code: 440 });
      await vi.advanceTimersByTimeAsync(BASE_MS);
    }
    expect(driver.connects).toHaveLength(MAX_REPLACED);
    expect(statuses().at(-1)).toEqual({ status: 'RECONNECTING', reason: 'replaced (440)' });
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    driver.latest.onClose({ kind: 'replaced', reason: 'replaced (440)', code: 440 });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(driver.connects).toHaveLength(MAX_REPLACED);
    expect(statuses().at(-1)).toEqual({
      status: 'DISCONNECTED',
      reason: expect.stringContaining(`replaced ${MAX_REPLACED} times in a row`),
    });
    expect(driver.cleared).toEqual([]);
    expect(ended).toEqual([rt]);
  });

  it('a 440 once the shard has moved away stops quietly: the new holder replaced us', async () => {
    const ended: SessionRuntime[] = [];
    const { driver, rt, statuses } = setup({ onEnded: (r) => ended.push(r), stillHolds: async () => false });
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    driver.latest.onClose({ kind: 'replaced', reason: 'replaced (440)', code: 440 });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(statuses()).toEqual([{ status: 'READY', reason: undefined }]);
    expect(driver.connects).toHaveLength(1);
    expect(ended).toEqual([rt]);
  });

  it('reconnectNow drops the link and connects at once with the backoff reset; the old link end is ignored', async () => {
    const { driver, rt, statuses } = setup();
    running = rt;
    await rt.start();
    for (let i = 0; i < 4; i++) {
      driver.latest.onClose({ kind: 'transient', reason: 'lost' });
      await vi.advanceTimersByTimeAsync(BASE_MS * 2 ** i);
    }
    expect(driver.connects).toHaveLength(5);
    driver.latest.onClose({ kind: 'transient', reason: 'lost' }); // next attempt in 16 s
    await settle();
    expect(rt.reconnectAttempt).toBe(5);
    const before = driver.connects[4];
    await rt.reconnectNow();
    expect(driver.connects).toHaveLength(6);
    expect(rt.reconnectAttempt).toBe(0);
    // The scheduled attempt is gone, and a late close of an older link changes nothing.
    before?.events.onClose({ kind: 'transient', reason: 'late' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(driver.connects).toHaveLength(6);
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    expect(statuses().at(-1)?.status).toBe('READY');
    // From READY too: the live link is closed and a new one opened.
    const live = driver.connects[5];
    await rt.reconnectNow();
    expect(live?.link.close).toHaveBeenCalled();
    expect(driver.connects).toHaveLength(7);
  });

  it('opens a new link at once when the network asks for a restart', async () => {
    const { driver, rt, statuses } = setup();
    running = rt;
    await rt.start();
    driver.latest.onClose({ kind: 'restart' });
    await settle();
    expect(driver.connects).toHaveLength(2);
    expect(statuses()).toEqual([]);
  });

  it('on logged_out removes the auth state, reports LOGGED_OUT and never reconnects', async () => {
    const { driver, rt, statuses } = setup();
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();

    driver.latest.onClose({ kind: 'logged_out', reason: 'device was logged out (401)' });
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    expect(driver.cleared).toEqual(['s1']);
    expect(statuses().at(-1)).toEqual({ status: 'LOGGED_OUT', reason: 'device was logged out (401)' });
    expect(driver.connects).toHaveLength(1);
  });

  it('on fatal (banned) reports FAILED, keeps the auth state, does not reconnect and leaves its owner', async () => {
    const ended: SessionRuntime[] = [];
    const { driver, rt, statuses } = setup({ onEnded: (r) => ended.push(r) });
    running = rt;
    await rt.start();
    driver.latest.onClose({ kind: 'fatal', reason: 'why' });
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    expect(statuses()).toEqual([{ status: 'FAILED', reason: 'why' }]);
    expect(driver.cleared).toEqual([]);
    expect(driver.connects).toHaveLength(1);
    expect(ended).toEqual([rt]);
  });

  it('makes a sender wait for READY through 10 minutes of reconnects and linking, then hands it the link', async () => {
    const { driver, rt } = setup();
    running = rt;
    await rt.start();
    let outcome: unknown;
    void rt.whenReady().then(
      (link) => (outcome = link),
      (err: Error) => (outcome = err),
    );
    const tenMinutes = Date.now() + 10 * 60_000;
    while (Date.now() < tenMinutes) {
      driver.latest.onClose({ kind: 'transient', reason: 'connection lost (428)' });
      await vi.advanceTimersByTimeAsync(60_000);
    }
    driver.latest.onQr('qr');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outcome).toBeUndefined();
    expect(rt.waitingForReady).toBe(1);

    driver.latest.onOpen({ mobile: '1' });
    await settle();
    expect(outcome).toBe(driver.connects.at(-1)?.link);
    expect(rt.waitingForReady).toBe(0);
  });

  it('keeps no wait that has ended: given up, timed out or answered', async () => {
    const { driver, rt } = setup();
    running = rt;
    await rt.start();
    const abort = new AbortController();
    const gaveUp = Array.from({ length: 1000 }, () =>
      rt.whenReady(undefined, abort.signal).catch((e: Error) => e),
    );
    const timedOut = Array.from({ length: 1000 }, () => rt.whenReady(5000).catch((e: Error) => e));
    expect(rt.waitingForReady).toBe(2000);
    abort.abort(new Error('consumer stopping'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(rt.waitingForReady).toBe(0);
    expect((await gaveUp[0]) as Error).toHaveProperty('message', 'consumer stopping');
    expect((await timedOut[0]) as Error).toHaveProperty('message', 'session s1 not READY (REGISTERING)');
    const answered = rt.whenReady();
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    await answered;
    expect(rt.waitingForReady).toBe(0);
  });

  it('ends a wait for READY when the session ends for good, or when the host lets the runtime go', async () => {
    const first = setup();
    await first.rt.start();
    const ended = first.rt.whenReady().catch((e: Error) => e);
    first.driver.latest.onClose({ kind: 'fatal', reason: 'forbidden (403)' });
    await settle();
    const err = await ended;
    expect(err).toBeInstanceOf(SessionEndedError);
    expect(err).toMatchObject({ status: 'FAILED', message: 'session s1 is FAILED: forbidden (403)' });
    // Asked after the end: answered at once, the same way.
    await expect(first.rt.whenReady()).rejects.toBeInstanceOf(SessionEndedError);

    const second = setup();
    await second.rt.start();
    const stopped = second.rt.whenReady().catch((e: Error) => e);
    await second.rt.stop();
    expect(await stopped).toBeInstanceOf(RuntimeStoppedError);
    expect(second.rt.waitingForReady).toBe(0);
  });

  it('probes a READY link gone quiet and reconnects when the probe fails', async () => {
    const { driver, rt, statuses } = setup({ zombieIdleMs: 10_000 });
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    const first = must(driver.connects[0], 'the first connect').link;
    first.probe.mockRejectedValueOnce(new Error('no answer'));

    await vi.advanceTimersByTimeAsync(10_000);
    expect(first.probe).toHaveBeenCalledTimes(1);
    expect(first.close).toHaveBeenCalled();
    expect(statuses().at(-1)).toEqual({ status: 'RECONNECTING', reason: 'no sign of life: no answer' });
    await vi.advanceTimersByTimeAsync(BASE_MS);
    expect(driver.connects).toHaveLength(2);
  });

  it('does not probe a link that shows signs of life', async () => {
    const { driver, rt } = setup({ zombieIdleMs: 10_000 });
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(4000);
      driver.latest.onActivity();
    }
    expect(driver.connects[0]?.link.probe).not.toHaveBeenCalled();
  });

  it('stop closes the link, keeps the auth state and ignores the close that follows', async () => {
    const { driver, rt, statuses } = setup();
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();

    await rt.stop();
    driver.latest.onClose({ kind: 'transient', reason: 'closed' });
    await vi.advanceTimersByTimeAsync(60_000);

    expect(driver.connects[0]?.link.close).toHaveBeenCalled();
    expect(driver.connects).toHaveLength(1);
    expect(driver.cleared).toEqual([]);
    expect(statuses().map((s) => s.status)).toEqual(['READY']);
  });

  it('logout unlinks at the network and reports LOGGED_OUT', async () => {
    const { driver, rt, statuses } = setup();
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();

    await rt.logout();
    expect(driver.connects[0]?.link.logout).toHaveBeenCalled();
    expect(statuses().at(-1)).toEqual({ status: 'LOGGED_OUT', reason: 'logged out by request' });
  });

  it('hands on every inbound message through a 30 s events-queue outage, in order', async () => {
    const delivered: HostEvent[] = [];
    const outageEnds = Date.now() + 30_000;
    const { driver, rt } = setup({
      emitEvent: async (e) => {
        if (Date.now() < outageEnds) throw new Error('events queue unreachable');
        delivered.push(e);
      },
    });
    running = rt;
    await rt.start();
    for (const id of ['I1', 'I2', 'I3'])
      driver.latest.onInbound({
        id,
        chatId: '14155550100',
        senderPhone: '14155550100',
        kind: 'text',
        text: id,
        timestampMs: 1,
      });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(delivered).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(delivered.map((e) => e.kind === 'message.inbound' && e.message.id)).toEqual(['I1', 'I2', 'I3']);
  });

  it('stop resolves only once what the link reported is handed on', async () => {
    const delivered: string[] = [];
    const { driver, rt } = setup({
      emitEvent: (e) =>
        new Promise((resolve) =>
          setTimeout(() => {
            delivered.push(e.kind);
            resolve();
          }, 3000),
        ),
    });
    await rt.start();
    driver.latest.onInbound({
      id: 'LAST',
      chatId: '14155550100',
      senderPhone: '14155550100',
      kind: 'text',
      text: 'just before the close',
      timestampMs: 1,
    });
    let stopped = false;
    void rt.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);
    expect(delivered).toEqual(['message.inbound']);
  });

  it('hands inbound messages, receipts and contacts on as host events', async () => {
    const { driver, emitted, rt } = setup();
    running = rt;
    await rt.start();
    driver.latest.onReceipt('M1', 'delivered');
    driver.latest.onContacts([{ phone: '14155550100', name: 'Ann' }]);
    driver.latest.onInbound({
      id: 'IN1',
      chatId: '14155550100',
      senderPhone: '14155550100',
      kind: 'text',
      text: 'hi',
      timestampMs: 1,
    });
    await settle();
    expect(emitted).toEqual([
      expect.objectContaining({ kind: 'message.status', messageId: 'M1', status: 'delivered' }),
      expect.objectContaining({ kind: 'contacts', contacts: [{ phone: '14155550100', name: 'Ann' }] }),
      expect.objectContaining({
        kind: 'message.inbound',
        sessionId: 's1',
        message: expect.objectContaining({ id: 'IN1', text: 'hi', mediaKey: undefined }),
      }),
    ]);
  });
});
