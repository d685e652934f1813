import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/client.ts';
import { type FakeNetwork, type FakeUser, startFakeNetwork } from '../support/fake-network/index.ts';
import { jsonClient } from '../support/http.ts';
import { spawnApi, spawnScript, stopProcess } from '../support/processes.ts';

/**
 * The real connection host process with MESSAGING_DRIVER=baileys, linked through the API to the
 * fake network edge (tests/support/fake-network): the whole path from HTTP to the socket and back.
 */

const procs: ChildProcess[] = [];
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;

beforeAll(async () => {
  net = await startFakeNetwork();
  me = net.addUser({ phone: '919811100001', name: 'Shop' });
  asha = net.addUser({ phone: '14155550122', name: 'Asha' });
});

afterAll(async () => {
  for (const p of procs) await stopProcess(p);
  await net?.close();
});

describe('connection host with the Baileys driver on the fake network', () => {
  it('links by QR, texts both ways with receipts, and logs in again after a host restart without a QR', async () => {
    const common = {
      RESOURCE_PREFIX: `bh${Date.now() % 1_000_000}`,
      SHARD_COUNT: '1',
      MESSAGING_DRIVER: 'baileys',
      BAILEYS_WS_URL: net.url,
      // Test-only trust of the fake network's certificate root (read by the driver under NODE_ENV=test).
      BAILEYS_TEST_ROOT_PUBLIC_KEY: net.rootPublicKey,
      NODE_ENV: 'test',
      SEND_INTERVAL_MS: '0',
    };
    const api = await spawnApi({ ...common, SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
    procs.push(api.proc);
    const startHost = () => {
      const p = spawnScript('connection-host/main.ts', common);
      procs.push(p);
      return p;
    };
    let host = startHost();
    const token = (
      await jsonClient(api.baseUrl).post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY })
    ).body.token;
    const admin = jsonClient(api.baseUrl, token);
    const sessionId: string = (await admin.post('/api/sessions', { name: 'shop' })).body.session.sessionId;
    const session = async () => (await admin.get(`/api/sessions/${sessionId}`)).body.session;

    const qr = await waitFor(
      async () =>
        (await admin.get(`/api/sessions/${sessionId}/qr`, { accept: 'application/json' })).body?.qr as
          | string
          | null,
      20_000,
      'a QR from the host',
    );
    const device = await me.scanQr(qr);
    const ready = await waitFor(
      async () => ((await session())?.status === 'READY' ? session() : undefined),
      20_000,
      'READY',
    );
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

    // A new host process picks the session up from the stored creds: a login, not a new link.
    await stopProcess(host);
    await waitFor(async () => !device.link, 10_000, 'the old socket to close');
    host = startHost();
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
