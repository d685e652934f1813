import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { names } from '#shared/aws/names';
import type { Command } from '#shared/commands/types';
import { resetEnvCache } from '#shared/config/env';
import { sendJson } from '#shared/queue/send';
import { CommandQueues } from '../../connection-host/command-queues.ts';
import type { CommandContext } from '../../connection-host/commands.ts';
import { handDriver } from '../../connection-host/drivers/hand-driver.ts';
import { SessionRuntime } from '../../connection-host/session-runtime.ts';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';

/**
 * A session that is not READY holds its sends in the shard's command queue (in flight, visibility
 * extended) without failing them, and without holding up the other sessions of the shard.
 */

const poll = <T>(fn: () => T, timeout = 5_000) => expect.poll(fn, { timeout, interval: 50 });

/** A runtime on a driver whose link the test opens by hand; the link records what it sent. */
function session(sessionId: string) {
  const hand = handDriver();
  const rt = new SessionRuntime({ tenantId: 't-wait', sessionId, method: 'qr' }, hand.driver, {
    maxFailures: 3,
    zombieIdleMs: 60_000,
    sendIntervalMs: 0,
    reconnectBaseMs: 1000,
    fence: () => 1,
    emitEvent: async () => {},
  });
  return {
    rt,
    get sent() {
      return hand.sent();
    },
    open: () => hand.latest().onOpen({ mobile: '1' }),
  };
}

const waiting = session(`s-wait-${randomBytes(4).toString('hex')}`);
const ready = session(`s-ready-${randomBytes(4).toString('hex')}`);
const ctx: CommandContext = {
  runtimeFor: async (ref) => [waiting.rt, ready.rt].find((r) => r.sessionId === ref.sessionId),
  forget: () => {},
  logoutUnlinked: async () => {},
  reconnect: async () => {},
};
// One shard, one queue, held here.
const queues = new CommandQueues({ ...ctx, shardOf: () => 0 }, { queueOf: () => 0 });

const sendCommand = (sessionId: string, messageId: string) => {
  const command: Command = {
    kind: 'send',
    commandId: `cmd_${randomBytes(8).toString('hex')}`,
    tenantId: 't-wait',
    sessionId,
    issuedAt: Date.now(),
    messageId,
    to: '14155550100',
    content: { kind: 'text', text: messageId },
  };
  return sendJson(names.commandQueue(0), command, { groupId: sessionId, dedupId: command.commandId });
};

beforeAll(async () => {
  process.env.RESOURCE_PREFIX = `crw${Date.now() % 1_000_000}`;
  process.env.SHARD_COUNT = '1';
  resetEnvCache();
  await bootstrapResources(process.env.RESOURCE_PREFIX, 1);
  await waiting.rt.start();
  await ready.rt.start();
  ready.open();
  queues.start(0);
});

afterAll(async () => {
  await queues.stopAll();
  await waiting.rt.stop();
  await ready.rt.stop();
});

it('holds a send for a session that is not READY past the visibility timeout, and lets the others through', async () => {
  await sendCommand(waiting.rt.sessionId, 'W1');
  await poll(() => waiting.rt.waitingForReady).toBe(1);

  // Another session of the same shard is not held up behind the wait.
  await sendCommand(ready.rt.sessionId, 'R1');
  await poll(() => ready.sent).toEqual(['R1']);

  // Past the command visibility timeout (10 s): still the one wait, so the message never came back.
  await new Promise((r) => setTimeout(r, 12_000));
  expect(waiting.rt.waitingForReady).toBe(1);
  expect(waiting.sent).toEqual([]);

  waiting.open();
  await poll(() => waiting.sent).toEqual(['W1']);
  // Done and deleted: nothing comes back.
  await new Promise((r) => setTimeout(r, 1_000));
  expect(waiting.sent).toEqual(['W1']);
}, 30_000);
