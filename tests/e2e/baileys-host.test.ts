import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BaileysStack, linkByQr, shopNetwork, startBaileysStack } from '../support/baileys-host.ts';
import { waitFor } from '../support/client.ts';
import type { FakeNetwork, FakeUser } from '../support/fake-network/index.ts';
import { stopProcess } from '../support/processes.ts';

/**
 * The real connection host process with MESSAGING_DRIVER=baileys, linked through the API to the
 * fake network edge (tests/support/fake-network): the whole path from HTTP to the socket and back.
 */

let stack: BaileysStack | undefined;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;

beforeAll(async () => {
  ({ net, me, asha } = await shopNetwork({ me: '919811100001', asha: '14155550122' }));
});

afterAll(async () => {
  await stack?.stop();
  await net?.close();
});

describe('connection host with the Baileys driver on the fake network', () => {
  it('links by QR, texts both ways with receipts, and logs in again after a host restart without a QR', async () => {
    stack = await startBaileysStack(net, { prefix: 'bh' });
    const { admin } = stack;
    let host = stack.startHost();
    const { sessionId, device, session: ready } = await linkByQr(admin, me);
    const session = async () => (await admin.get(`/api/sessions/${sessionId}`)).body.session;
    expect(ready).toMatchObject({ status: 'READY', mobile_number: expect.stringContaining('919811100001') });

    const view = async (type: 'inbound' | 'outbound') =>
      (await admin.get(`/view/messages/v1?sessionId=${sessionId}&type=${type}`)).body.messages as Array<{
        id: string;
        text: string;
        status: string;
      }>;
    const inboundId = await asha.sendText(me, 'is the shop open today?');
    const inbound = await waitFor(
      async () => (await view('inbound')).find((m) => m.id === inboundId),
      15_000,
      'the inbound text in history',
    );
    expect(inbound.text).toBe('is the shop open today?');

    const sent = await admin.post('/api/messages/send', {
      sessionId,
      to: '14155550122',
      text: 'yes, until 8 pm',
    });
    expect(sent.status).toBe(202);
    const id: string = sent.body.messageId;
    await waitFor(async () => asha.received.find((m) => m.id === id), 15_000, 'Asha to decrypt the reply');
    expect(asha.received.find((m) => m.id === id)?.text).toBe('yes, until 8 pm');
    const status = async () => (await view('outbound')).find((m) => m.id === id)?.status;
    // Re-sent until seen: a receipt within Baileys' 100 ms buffer of its own send goes unreported.
    await waitFor(
      async () => {
        asha.sendReceipt(me, [id], 'read');
        return (await status()) === 'read';
      },
      15_000,
      'read',
    );

    // The business answers from its phone: the message joins the chat's history and the bot stays
    // out of Asha's chat (docs/chatbot.md, "Human takeover"); our own API send above, which the
    // network echoes back to the socket as well, took nothing over.
    const rule = await admin.post('/api/v1/chatbot/rules', {
      mobid: '*',
      triggerType: 'contains',
      keyword: 'price',
      replyType: 'text',
      response: 'A haircut is 300.',
    });
    expect(rule.status).toBe(201);
    const ownId = await me.sendFromMyPhone(asha, 'Ravi here, I will answer you myself');
    const own = await waitFor(
      async () => (await view('outbound')).find((m) => m.id === ownId),
      15_000,
      'the phone message in history',
    );
    expect(own.text).toBe('Ravi here, I will answer you myself');
    const paused = await waitFor(
      async () => {
        const r = await admin.get(`/api/v1/chatbot/takeover?sessionId=${sessionId}`);
        return r.body.paused?.length ? r.body.paused : undefined;
      },
      15_000,
      'the takeover',
    );
    expect(paused).toEqual([{ chatId: '14155550122', until: expect.any(String), by: 'phone' }]);

    // A new host process picks the session up from the stored creds: a login, not a new link.
    await stopProcess(host);
    await waitFor(async () => !device.link, 10_000, 'the old socket to close');
    host = stack.startHost();
    await waitFor(async () => device.link && device.online, 30_000, 'the new host to log in');
    await waitFor(async () => (await session())?.status === 'READY', 15_000, 'READY again');
    expect(me.companions.size).toBe(1);
    expect(net.pendingRegistrations()).toEqual([]);

    const again = await asha.sendText(me, 'thanks!');
    await waitFor(
      async () => (await view('inbound')).some((m) => m.id === again),
      15_000,
      'inbound after restart',
    );
  }, 120_000);
});
