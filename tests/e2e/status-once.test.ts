import { describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const sim = api();

describe('delivery status', () => {
  it('reports each transition of a message once: one message.status webhook per status', async () => {
    const t = await newTenant();
    const hook = await startReceiver();
    try {
      await webhookTo(t.api, hook);
      const s = await readySession(t.api);
      const statuses = (id: string) => hook.of('message.status', id).map((r) => r.json.status as string);
      const arrived = (id: string, status: string) =>
        waitFor(async () => statuses(id).includes(status), 10_000, `${status} webhook for ${id}`);

      /** Sends one message and walks it to `read`, waiting for each status's webhook. */
      const sendToRead = async (text: string) => {
        const sent = await t.api.post('/api/messages/send', {
          sessionId: s.sessionId,
          to: '919822200011',
          text,
        });
        expect(sent.status).toBe(202);
        const id = sent.body.messageId as string;
        await arrived(id, 'sent');
        for (const status of ['delivered', 'read'] as const) {
          const r = await sim.post('/_sim/receipt', { sessionId: s.sessionId, messageId: id, status });
          expect(r.status).toBe(200);
          await arrived(id, status);
        }
        return id;
      };

      const first = await sendToRead('Your slot is 10:30');
      // Anything the first message still had in flight (a second `sent` from another layer) was
      // queued before the second message's events, so it has been applied once the second is read.
      const second = await sendToRead('See you then');

      for (const id of [first, second]) expect(statuses(id)).toEqual(['sent', 'delivered', 'read']);
      const deliveries = (await t.api.get('/api/webhook/deliveries')).body.deliveries as Array<{
        event: string;
        payload?: { message_id?: string; status?: string };
      }>;
      const ofFirst = deliveries.filter(
        (d) => d.event === 'message.status' && d.payload?.message_id === first,
      );
      expect(ofFirst.map((d) => d.payload?.status).sort()).toEqual(['delivered', 'read', 'sent']);
    } finally {
      await hook.close();
    }
  });
});
