import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BaileysStack, sessionWithQr, startBaileysStack } from '../support/baileys-host.ts';
import { waitFor } from '../support/client.ts';
import { type FakeNetwork, type FakeUser, startFakeNetwork } from '../support/fake-network/index.ts';

/**
 * A passkey-gated account, through the API and the real host process with the Baileys driver on
 * the fake network: the scan gets the network's passkey request, and the session ends FAILED with
 * PASSKEY_REQUIRED instead of showing QR after QR.
 */

let stack: BaileysStack;
let net: FakeNetwork;
let owner: FakeUser;

beforeAll(async () => {
  net = await startFakeNetwork();
  owner = net.addUser({ phone: '919811100066', name: 'Gated shop' });
  owner.passkeyGated = true;
  stack = await startBaileysStack(net, { prefix: 'bp' });
  stack.startHost();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await net?.close();
});

describe('passkey-gated linking (Baileys on the fake network)', () => {
  it('ends FAILED with PASSKEY_REQUIRED after the scan, and shows no further QR', async () => {
    const { admin } = stack;
    const { sessionId, qr } = await sessionWithQr(admin, 'gated');
    await expect(owner.scanQr(qr)).rejects.toThrow(/passkey/);
    const failed = await waitFor(
      async () => {
        const s = (await admin.get(`/api/sessions/${sessionId}`)).body.session;
        return s.status === 'FAILED' ? s : undefined;
      },
      20_000,
      'the session to fail',
    );
    expect(failed.reason).toMatch(/^PASSKEY_REQUIRED: /);
    net.refreshQr();
    await new Promise((r) => setTimeout(r, 1500));
    const after = (await admin.get(`/api/sessions/${sessionId}`)).body.session;
    expect(after.status).toBe('FAILED');
    expect(owner.companions.size).toBe(0);
  });
});
