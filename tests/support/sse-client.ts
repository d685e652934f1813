import { baseUrl } from './client.ts';
import { sseBlocks } from './sse-frames.ts';

export interface SseEvent {
  id?: string;
  data: string;
  json: any;
  /** Arrived before the server's `: connected` comment: sent while opening the feed, i.e. replayed. */
  beforeConnected: boolean;
  /** When this client read it (epoch ms). */
  receivedAt: number;
}

/**
 * Reads the tenant stream with fetch. `connected` resolves at the server's `: connected` comment,
 * after which every message committed is guaranteed to reach this client.
 */
export async function openStream(
  portalId: string,
  opt: { lastEventId?: string; query?: string; base?: string; path?: string; token?: string } = {},
) {
  const ac = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-cache' };
  if (opt.lastEventId) headers['last-event-id'] = opt.lastEventId;
  if (opt.token) headers.authorization = `Bearer ${opt.token}`;
  const path = opt.path ?? `/api/public/portal/${portalId}/stream`;
  const res = await fetch(`${opt.base ?? baseUrl()}${path}${opt.query ?? ''}`, {
    headers,
    signal: ac.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let isConnected = false;
  let onConnected: () => void = () => {};
  const connected = new Promise<void>((r) => {
    onConnected = () => {
      isConnected = true;
      r();
    };
  });
  const reading = (async () => {
    if (!res.body) return;
    try {
      for await (const block of sseBlocks(res.body as AsyncIterable<Uint8Array>)) {
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
            if (line.includes('connected')) onConnected();
          } else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length) {
          const text = data.join('\n');
          events.push({
            id,
            data: text,
            json: JSON.parse(text),
            beforeConnected: !isConnected,
            receivedAt: Date.now(),
          });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    connected,
    /** Resolves when the server ends the stream (or close() aborts it). */
    ended: reading,
    async close() {
      ac.abort();
      await reading;
    },
  };
}
