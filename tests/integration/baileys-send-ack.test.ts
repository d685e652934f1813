import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '#shared/commands/types';
import type { HostEvent } from '#shared/events/types';
import { applyCommand, type CommandContext, SEND_ATTEMPTS } from '../../connection-host/commands.ts';
import { SessionRuntime } from '../../connection-host/session-runtime.ts';
import { type DriverNetwork, startShopNetwork } from '../support/baileys-driver-rig.ts';
import type { FakeNetwork, FakeUser } from '../support/fake-network/index.ts';

/**
 * `sent` means the network acknowledged the message, not that Baileys wrote it to a socket. The
 * host runtime and a real Baileys driver against the fake network, which loses or refuses sends.
 */

const TENANT = 't-ack';
const ACK_TIMEOUT_MS = 1000;
let rig: DriverNetwork;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let rt: SessionRuntime;
const emitted: HostEvent[] = [];
const sessionId = `s-${randomBytes(4).toString('hex')}`;
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const ctx: CommandContext = {
  runtimeFor: async () => rt,
  forget: () => {},
  logoutUnlinked: async () => {},
  reconnect: async () => {},
};

const statuses = (messageId: string) =>
  emitted.flatMap((e) =>
    e.kind === 'message.status' && e.messageId === messageId ? [{ status: e.status, reason: e.reason }] : [],
  );

function send(text: string) {
  const messageId = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
  const command: Command = {
    kind: 'send',
    commandId: `cmd_${randomBytes(8).toString('hex')}`,
    tenantId: TENANT,
    sessionId,
    issuedAt: Date.now(),
    messageId,
    to: asha.number,
    content: { kind: 'text', text },
  };
  return { messageId, done: applyCommand(command, ctx) };
}

beforeAll(async () => {
  ({ rig, net, me, asha } = await startShopNetwork('bsa', { me: '919876543255', asha: '14155550155' }));
  rt = new SessionRuntime(
    { tenantId: TENANT, sessionId, method: 'qr' },
    rig.driver({ sendAckTimeoutMs: ACK_TIMEOUT_MS }),
    {
      maxFailures: 3,
      zombieIdleMs: 60_000,
      sendIntervalMs: 0,
      reconnectBaseMs: 200,
      fence: () => 1,
      emitEvent: async (e) => {
        emitted.push(e);
      },
    },
  );
});

afterAll(async () => {
  await rt?.stop();
  await rig?.close();
});

describe('a send is sent only once the network acknowledged it', () => {
  it('links the session', async () => {
    await rt.start();
    await poll(() => emitted.some((e) => e.kind === 'session.status' && e.qr)).toBe(true);
    const shown = emitted.find((e) => e.kind === 'session.status' && e.qr);
    await me.scanQr(shown?.kind === 'session.status' ? (shown.qr ?? '') : '');
    await rt.whenReady(15_000);
  });

  it('a send the network never acknowledges is sent again with the same id, then failed with the reason', async () => {
    net.loseNextSends(SEND_ATTEMPTS);
    const { messageId, done } = send('lost three times');
    // Not `sent` while the network has said nothing.
    await poll(() => net.lost.length).toBe(1);
    expect(statuses(messageId)).toEqual([]);
    await done;
    expect(net.lost).toEqual(Array(SEND_ATTEMPTS).fill(messageId));
    expect(statuses(messageId)).toEqual([
      {
        status: 'failed',
        reason: `not acknowledged by the network after ${SEND_ATTEMPTS} sends; last: the network did not acknowledge the message within ${ACK_TIMEOUT_MS / 1000} s`,
      },
    ]);
    expect(asha.received.some((m) => m.id === messageId)).toBe(false);
  });

  it('a send lost once goes out again with the same id and is sent once acknowledged', async () => {
    net.lost.length = 0;
    net.loseNextSends(1);
    const { messageId, done } = send('lost once');
    await done;
    expect(net.lost).toEqual([messageId]);
    expect(statuses(messageId)).toEqual([{ status: 'sent', reason: undefined }]);
    await poll(() => asha.received.filter((m) => m.id === messageId).map((m) => m.text)).toEqual([
      'lost once',
    ]);
  });

  it('a send the network refuses is failed with its code, once, never sent', async () => {
    net.failNextSend('479', asha);
    const { messageId, done } = send('refused');
    await done;
    await new Promise((r) => setTimeout(r, 500)); // the refusal also reaches Baileys' own events
    expect(statuses(messageId)).toEqual([
      { status: 'failed', reason: 'the network refused the message (error 479)' },
    ]);
  });
});
