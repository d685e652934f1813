import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '#shared/events/types';
import { applyCommand, type CommandContext } from '../../connection-host/commands.ts';
import { SessionRuntime } from '../../connection-host/session-runtime.ts';
import { simulatorDriver } from '../../simulator/driver/driver.ts';
import { api, waitFor } from '../support/client.ts';

const sim = api();

/**
 * The host side of a send, with the real simulator driver against the running simulated network:
 * every layer that could report `sent` (the command, the driver, the network's ack) is in play, and
 * the events the host would queue are counted before any conditional write could hide a repeat.
 */
describe('host events of an outbound message', () => {
  const runtimes: SessionRuntime[] = [];
  afterEach(async () => {
    for (const rt of runtimes.splice(0)) await rt.stop();
  });

  it('reports each status of a sent message once', async () => {
    const tenantId = `tnt_${randomBytes(8).toString('hex')}`;
    const sessionId = `qr_${Date.now()}_${randomBytes(4).toString('hex')}`;
    const emitted: HostEvent[] = [];
    const rt = new SessionRuntime({ tenantId, sessionId, method: 'qr' }, simulatorDriver(), {
      maxFailures: 3,
      zombieIdleMs: 60_000,
      sendIntervalMs: 0,
      reconnectBaseMs: 1000,
      fence: () => undefined,
      emitEvent: async (e) => {
        emitted.push(e);
      },
    });
    runtimes.push(rt);
    await rt.start();
    await rt.whenReady(10_000);
    const ctx: CommandContext = {
      runtimeFor: async () => rt,
      forget: () => {},
      logoutUnlinked: async () => {},
      reconnect: async () => rt.reconnectNow(),
    };
    const statuses = (messageId: string) =>
      emitted.flatMap((e) => (e.kind === 'message.status' && e.messageId === messageId ? [e.status] : []));

    const sendToRead = async () => {
      const messageId = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
      await applyCommand(
        {
          kind: 'send',
          commandId: `cmd_${randomBytes(8).toString('hex')}`,
          tenantId,
          sessionId,
          issuedAt: Date.now(),
          messageId,
          to: '919822200021',
          content: { kind: 'text', text: 'Your slot is 10:30' },
        },
        ctx,
      );
      for (const status of ['delivered', 'read'] as const) {
        expect((await sim.post('/_sim/receipt', { sessionId, messageId, status })).status).toBe(200);
        await waitFor(async () => statuses(messageId).includes(status), 10_000, `${status} of ${messageId}`);
      }
      return messageId;
    };

    const first = await sendToRead();
    // The network acks the first message before the second is even sent, and its frames reach the
    // link in order: once the second message is read, nothing of the first is still on the way.
    const second = await sendToRead();

    expect(statuses(first)).toEqual(['sent', 'delivered', 'read']);
    expect(statuses(second)).toEqual(['sent', 'delivered', 'read']);
  });
});
