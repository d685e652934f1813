import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BaileysStack,
  historyOf,
  shopNetwork,
  startLinkedStack,
  stopLinked,
} from '../support/baileys-host.ts';
import { waitFor } from '../support/client.ts';
import type { FakeNetwork, FakeUser } from '../support/fake-network/index.ts';
import type { jsonClient } from '../support/http.ts';
import { must } from '../support/must.ts';
import { openStream } from '../support/sse-client.ts';
import type { startReceiver } from '../support/webhook-receiver.ts';

/**
 * A message the device cannot decrypt, end to end with the real host process and the Baileys
 * driver on the fake network edge: Baileys sends the sender a retry receipt; the host reports a
 * `decrypt_failed` placeholder (history, stream, webhook, never answered by the chatbot), and the
 * real message the sender's phone sends again with the same id replaces it.
 */

let stack: BaileysStack;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
let admin: ReturnType<typeof jsonClient>;
let sessionId: string;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let stream: Awaited<ReturnType<typeof openStream>>;

const inbound = () => historyOf(admin, sessionId, 'inbound');
/** The stream's events of one message (its feed id ends with `#<message id>`). */
const streamed = (id: string) => stream.events.filter((e) => e.id?.endsWith(`#${id}`)).map((e) => e.json);

beforeAll(async () => {
  ({ net, me, asha } = await shopNetwork({ me: '919811100077', asha: '14155550177' }));
  ({ hook, stack, admin, sessionId } = await startLinkedStack(net, me, { prefix: 'bu' }));
  const portalId: string = (await admin.get('/api/portal')).body.portal_id;
  stream = await openStream(portalId, { base: stack.baseUrl });
  await stream.connected;
}, 90_000);

afterAll(async () => {
  await stream?.close();
  await stopLinked(stack, net, hook);
});

describe('undecryptable messages (Baileys on the fake network)', () => {
  it('a placeholder first (webhook, stream, history), then the real message replaces it', async () => {
    net.ignoreRetries = true; // Asha's phone does not answer the retry receipt yet
    const id = await asha.sendUndecryptableText(me, 'two boxes of mangoes, please');
    await waitFor(
      async () => net.receipts.find((r) => r.node.attrs.type === 'retry' && r.node.attrs.id === id),
      15_000,
      'the device to ask Asha for the message again',
    );
    const placeholder = await waitFor(
      async () => hook.of('message.inbound', id)[0],
      20_000,
      'the placeholder webhook',
    );
    expect(placeholder.json).toMatchObject({
      message_id: id,
      sender: '14155550177',
      decrypt_failed: true,
      content: { text: null, media_url: null },
    });
    expect(placeholder.json.timestamp).toBeGreaterThan(0);
    const stored = await waitFor(
      async () => (await inbound()).find((m) => m.id === id),
      15_000,
      'in history',
    );
    expect(stored.type).toBe('decrypt_failed');
    await waitFor(async () => streamed(id).length > 0, 15_000, 'the placeholder on the stream');
    expect(streamed(id)[0]).toMatchObject({ type: 'decrypt_failed', sender: '14155550177' });

    // Asha's phone answers now: the same id, encrypted properly.
    await asha.sendText(me, 'two boxes of mangoes, please', { id });
    await waitFor(
      async () => hook.of('message.inbound', id).length === 2,
      20_000,
      'the real message webhook',
    );
    const real = must(hook.of('message.inbound', id)[1], "hook.of('message.inbound', id)[1]");
    expect(real.json.content.text).toBe('two boxes of mangoes, please');
    expect(real.json).not.toHaveProperty('decrypt_failed');
    expect(real.headers['x-service-delivery-id']).not.toBe(placeholder.headers['x-service-delivery-id']);
    await waitFor(async () => streamed(id).length === 2, 15_000, 'the real message on the stream');
    expect(streamed(id)[1]).toMatchObject({ type: 'text', message: 'two boxes of mangoes, please' });
    const rows = (await inbound()).filter((m) => m.id === id);
    expect(rows).toEqual([expect.objectContaining({ type: 'text', text: 'two boxes of mangoes, please' })]);
  });

  it('the sender answers the retry receipt by itself: placeholder webhook, then the real one; history holds the real one once', async () => {
    net.ignoreRetries = false;
    const id = await asha.sendUndecryptableText(me, 'is delivery free?');
    await waitFor(async () => net.resent.includes(id), 15_000, "Asha's phone to send it again");
    await waitFor(
      async () => hook.of('message.inbound', id).length === 2,
      20_000,
      'placeholder and real webhooks',
    );
    const [first, second] = hook.of('message.inbound', id);
    expect(first?.json.decrypt_failed).toBe(true);
    expect(second?.json.content.text).toBe('is delivery free?');
    const rows = await waitFor(
      async () => {
        const r = (await inbound()).filter((m) => m.id === id);
        return r[0]?.type === 'text' ? r : undefined;
      },
      15_000,
      'the real message in history',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.text).toBe('is delivery free?');
    // A repeat of the real message (the network's own re-delivery) changes nothing.
    await asha.sendText(me, 'is delivery free?', { id });
    await new Promise((r) => setTimeout(r, 2000));
    expect(hook.of('message.inbound', id)).toHaveLength(2);
    expect((await inbound()).filter((m) => m.id === id)).toHaveLength(1);
  });
});
