import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local webhook receiver for benches: answers 200 to every POST and hands the text of each
 * `message.inbound` delivery (the bench's message tag) to `onText`. Shared by the benches that
 * count deliveries, so each only says what it counts.
 */
export async function inboundWebhookReceiver(onText: (text: unknown) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end('ok');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.event === 'message.inbound') onText(body.content?.text);
      } catch {}
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}
