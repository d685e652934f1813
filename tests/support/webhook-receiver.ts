import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** What the receiver answered. */
  status: number;
  at: number;
}

/**
 * A real HTTP server standing in for a tenant's webhook receiver. `answer` picks the status for
 * each request (default 200); every request is kept, whatever was answered. With `delayMs`, each
 * answer leaves that long after the request arrived (a slow receiver).
 */
export async function startReceiver(
  answer: (req: Omit<ReceivedRequest, 'status'>) => number = () => 200,
  opts: { delayMs?: number } = {},
) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {}
      const seen = { headers: req.headers, body, json, at: Date.now() };
      const status = answer(seen);
      requests.push({ ...seen, status });
      setTimeout(
        () => res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope'),
        opts.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    /** Requests carrying this event (and, when given, this message id). */
    of(event: string, messageId?: string) {
      return requests.filter(
        (r) => r.json?.event === event && (!messageId || r.json?.message_id === messageId),
      );
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
    /** Closes at once, cutting requests still waiting for their (delayed) answer. */
    closeNow: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
