import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver for benches that count inbound messages by their text (the bench's tag): it
 * answers 200 at once, before parsing, so the receiver never slows the delivery it measures, and
 * hands each `message.inbound` text to `arrivals`. Shared by bench/inbound-throughput.ts and
 * bench/scale-out.ts.
 */
export async function webhookReceiver(arrivals: { add(tag: string | undefined): void }) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end('ok');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.event === 'message.inbound') arrivals.add(body.content?.text);
      } catch {}
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}
