import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LidCache } from '#shared/contacts/lid-cache';
import type { HostEvent } from '#shared/events/types';
import type { DriverEvents, DriverLink, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { type RuntimeOptions, SessionRuntime } from './session-runtime.ts';

// The backoff formula is tested on its own; here a plain doubling shows which attempt the runtime asks for.
vi.mock('./backoff.ts', () => ({
  reconnectDelay: (retry: number, baseMs: number) => baseMs * 2 ** retry,
  emitRetryDelay: (retry: number) => 200 * 2 ** retry,
}));

const BASE_MS = 1000;

function fakeLink() {
  return {
    send: vi.fn(async () => {}),
    presence: vi.fn(async () => {}),
    react: vi.fn(async () => {}),
    pin: vi.fn(async () => {}),
    postStatus: vi.fn(async () => {}),
    groupAction: vi.fn(async () => ({})),
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

  it('gives up as FAILED after maxFailures transient closes in a row', async () => {
    const { driver, rt, statuses } = setup({ maxFailures: 2 });
    running = rt;
    await rt.start();
    for (const delay of [BASE_MS, 2 * BASE_MS]) {
      driver.latest.onClose({ kind: 'transient', reason: 'lost' });
      await vi.advanceTimersByTimeAsync(delay);
    }
    expect(driver.connects).toHaveLength(3);
    driver.latest.onClose({ kind: 'transient', reason: 'lost' });
    await vi.advanceTimersByTimeAsync(60_000);

    expect(driver.connects).toHaveLength(3);
    expect(statuses().at(-1)).toEqual({ status: 'FAILED', reason: 'gave up after 2 attempts: lost' });
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

  it.each([
    ['replaced', 'DISCONNECTED'],
    ['fatal', 'FAILED'],
  ] as const)('on %s reports %s, keeps the auth state and does not reconnect', async (kind, status) => {
    const { driver, rt, statuses } = setup();
    running = rt;
    await rt.start();
    driver.latest.onClose({ kind, reason: 'why' });
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    expect(statuses()).toEqual([{ status, reason: 'why' }]);
    expect(driver.cleared).toEqual([]);
    expect(driver.connects).toHaveLength(1);
  });

  it('makes a sender wait for READY and fails it when READY does not come in time', async () => {
    const { driver, rt } = setup();
    running = rt;
    await rt.start();

    const late = rt.whenReady(5000);
    const outcome = late.then(
      () => 'ready',
      (err: Error) => err.message,
    );
    await vi.advanceTimersByTimeAsync(4999);
    driver.latest.onQr('qr');
    await settle();
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toBe('session s1 not READY (QR_READY)');

    const waiting = rt.whenReady(5000);
    await vi.advanceTimersByTimeAsync(3000);
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    await expect(waiting).resolves.toBe(driver.connects[0]?.link);
  });

  it('probes a READY link gone quiet and reconnects when the probe fails', async () => {
    const { driver, rt, statuses } = setup({ zombieIdleMs: 10_000 });
    running = rt;
    await rt.start();
    driver.latest.onOpen({ mobile: '1' });
    await settle();
    const first = driver.connects[0]!.link;
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
