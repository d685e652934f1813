import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BaileysStack,
  historyOf,
  shopNetwork,
  startLinkedStack,
  stopLinked,
  deliveredOnce as storedOnce,
} from '../support/baileys-host.ts';
import { commandFinished, waitFor } from '../support/client.ts';
import type { Companion, FakeNetwork, FakeUser } from '../support/fake-network/index.ts';
import type { jsonClient } from '../support/http.ts';
import { stopProcess } from '../support/processes.ts';
import type { startReceiver } from '../support/webhook-receiver.ts';

/**
 * What happens to messages, end to end, with the real connection host process and the Baileys
 * driver on the fake network edge: error acks and read receipts of sent messages (history and the
 * status webhook), messages queued by the network while the host process was down, and status
 * stories (audience from the stored contacts, a refusal is a failed command).
 */

let stack: BaileysStack;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let bob: FakeUser;
let carol: FakeUser;
let device: Companion;
let admin: ReturnType<typeof jsonClient>;
let sessionId: string;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let host: ChildProcess;

const session = async () => (await admin.get(`/api/sessions/${sessionId}`)).body.session;
const history = (type: 'inbound' | 'outbound') => historyOf(admin, sessionId, type);
const deliveredOnce = (id: string) => storedOnce(admin, hook, sessionId, id);

const commandDone = (commandId: string) => commandFinished(admin, commandId, 45_000);

beforeAll(async () => {
  ({ net, me, asha } = await shopNetwork({ me: '919811100088', asha: '14155550188' }));
  bob = net.addUser({ phone: '14155550189', name: 'Bob' });
  carol = net.addUser({ phone: '14155550190', name: 'Carol' });
  ({ hook, stack, admin, host, sessionId, device } = await startLinkedStack(net, me, {
    prefix: 'bd',
    // A killed host's shard lease runs out quickly for the next one.
    env: { LEASE_TTL_MS: '3000' },
  }));
}, 90_000);

afterAll(() => stopLinked(stack, net, hook));

describe('Baileys delivery on the fake network (real host process)', () => {
  it('an error ack makes a sent message failed with the reason (history and webhook); a read receipt makes one read', async () => {
    net.failNextSend('479', asha);
    const refused = await admin.post('/api/messages/send', { sessionId, to: '14155550188', text: 'refused' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(202);
    const refusedId: string = refused.body.messageId;
    const failed = await waitFor(
      async () => (await history('outbound')).find((m) => m.id === refusedId && m.status === 'failed'),
      20_000,
      'failed in history',
    );
    expect(failed.reason).toContain('479');
    const failedHook = await waitFor(
      async () => hook.of('message.status', refusedId).find((r) => r.json.status === 'failed'),
      20_000,
      'the failed status webhook',
    );
    expect(failedHook.json).toMatchObject({ direction: 'outbound', chat_id: '14155550188' });
    expect(failedHook.json.reason).toContain('479');
    expect(asha.received.some((m) => m.id === refusedId)).toBe(false);

    const sent = await admin.post('/api/messages/send', {
      sessionId,
      to: '14155550188',
      text: 'see you at 5',
    });
    const id: string = sent.body.messageId;
    await waitFor(async () => asha.received.find((m) => m.id === id), 15_000, 'Asha to decrypt it');
    // Re-sent until seen: a receipt within Baileys' 100 ms buffer of its own send goes unreported.
    await waitFor(
      async () => {
        asha.sendReceipt(me, [id], 'read');
        return (await history('outbound')).find((m) => m.id === id && m.status === 'read');
      },
      15_000,
      'read in history',
    );
    const readHook = await waitFor(
      async () => hook.of('message.status', id).find((r) => r.json.status === 'read'),
      20_000,
      'the read status webhook',
    );
    expect(readHook.json.reason).toBeNull();
    expect((await history('outbound')).find((m) => m.id === id)?.reason).toBeNull();
  }, 60_000);

  it('texts the network queued while the host process was down reach history and the webhook once, without a new QR', async () => {
    // Bob writes once now: a stored contact from here on, never seen on the next host's link.
    const early = await bob.sendText(me, 'please tell me when the new stock is in');
    await deliveredOnce(early);

    await stopProcess(host, 'SIGKILL');
    await waitFor(async () => !device.link, 15_000, 'the killed host socket to close');
    const queued = [
      await asha.sendText(me, 'are you open tomorrow?'),
      await asha.sendText(me, 'and on Sunday?'),
    ];
    expect(device.queue.length).toBeGreaterThanOrEqual(2);

    host = stack.startHost();
    await waitFor(async () => device.link && device.online, 45_000, 'the new host to log in');
    await waitFor(async () => (await session())?.status === 'READY', 20_000, 'READY again');
    for (const id of queued) await deliveredOnce(id);
    const texts = (await history('inbound')).filter((m) => queued.includes(m.id)).map((m) => m.text);
    expect(texts.sort()).toEqual(['and on Sunday?', 'are you open tomorrow?']);
    // A login from the stored creds: still one linked device, no registration (QR) under way.
    expect(me.companions.size).toBe(1);
    expect(net.pendingRegistrations()).toEqual([]);
    expect(hook.of('message.inbound', queued[0]).at(0)?.json).toMatchObject({ session_id: sessionId });
  }, 120_000);

  it('a status story after the restart reaches stored contacts and the request audience; a refusal fails the command', async () => {
    const statusCopies = (u: FakeUser) => u.received.filter((m) => m.to === 'status@broadcast');
    const before = { bob: statusCopies(bob).length, carol: statusCopies(carol).length };
    const r = await admin.post('/api/sessions/status', {
      sessionId,
      type: 'text',
      content: 'New stock is in!',
      audience: ['+1 415 555 0190'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const done = await commandDone(r.body.commandId);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    // Bob is known only from the store (he wrote before the restart), Carol only from the request.
    await waitFor(async () => statusCopies(bob).length > before.bob, 10_000, 'the story encrypted for Bob');
    await waitFor(
      async () => statusCopies(carol).length > before.carol,
      10_000,
      'the story encrypted for Carol',
    );
    expect(statusCopies(asha).length).toBeGreaterThan(0);

    net.failNextSend('479');
    const refused = await admin.post('/api/sessions/status', { sessionId, type: 'text', content: 'refused' });
    expect(refused.status).toBe(202);
    const failed = await commandDone(refused.body.commandId);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('479');

    const tooMany = await admin.post('/api/sessions/status', {
      sessionId,
      type: 'text',
      content: 'x',
      audience: Array.from({ length: 1001 }, (_, i) => `1415555${String(i).padStart(4, '0')}`),
    });
    expect(tooMany.status).toBe(400);
    const bad = await admin.post('/api/sessions/status', {
      sessionId,
      type: 'text',
      content: 'x',
      audience: ['12'],
    });
    expect(bad.status).toBe(400);
  }, 90_000);
});
