import { request } from 'node:http';
import { SseBlocks } from '../../tests/support/sse-frames.ts';

/**
 * Child process of bench/webhook-sse.ts: holds many SSE connections to one stream, so that the
 * server's memory is measured without the clients in it. Talks to the parent over IPC.
 */
interface Arrival {
  count: number;
  first: number;
  last: number;
}
const arrivals = new Map<string, Arrival>();
const sockets: Array<{ destroy(): void }> = [];
let connected = 0;

function open(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.setEncoding('utf8');
      const blocks = new SseBlocks();
      let isConnected = false;
      res.on('data', (chunk: string) => {
        for (const block of blocks.push(chunk)) {
          if (!isConnected && block.includes(': connected')) {
            isConnected = true;
            connected++;
            resolve();
          }
          const id = block.match(/^id: \d{13}#(.+)$/m)?.[1];
          if (!id) continue;
          const now = Date.now();
          const a = arrivals.get(id);
          if (a) {
            a.count++;
            a.last = now;
          } else arrivals.set(id, { count: 1, first: now, last: now });
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
    sockets.push(req);
    req.end();
  });
}

process.on('message', async (msg: { cmd: string; url?: string; n?: number }) => {
  if (msg.cmd === 'open' && msg.url && msg.n) {
    const t0 = Date.now();
    const target = connected + msg.n;
    // Batches, so that the listen backlog is never overrun.
    for (let opened = 0; opened < msg.n; opened += 200) {
      const batch = Math.min(200, msg.n - opened);
      await Promise.all(Array.from({ length: batch }, () => open(msg.url as string)));
    }
    process.send?.({ type: 'opened', connected, target, ms: Date.now() - t0 });
  } else if (msg.cmd === 'report') {
    process.send?.({ type: 'report', arrivals: Object.fromEntries(arrivals), connected });
  } else if (msg.cmd === 'close') {
    for (const s of sockets) s.destroy();
    process.send?.({ type: 'closed' }, () => process.exit(0));
  }
});
process.send?.({ type: 'ready' });
