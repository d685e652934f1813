import { must } from '../../tests/support/must.ts';
import { inboundWebhookReceiver } from './webhook-receiver.ts';

/*
 * Where the bench's messages arrive: a webhook receiver and one SSE client, each noting when every
 * message tag came first and how often it came.
 */

/** Arrival times by message tag, and how often each tag arrived. */
export class Arrivals {
  readonly at = new Map<string, number>();
  readonly seen = new Map<string, number>();
  add(tag: string | undefined) {
    if (!tag?.startsWith('b')) return;
    this.seen.set(tag, (this.seen.get(tag) ?? 0) + 1);
    if (!this.at.has(tag)) this.at.set(tag, performance.now());
  }
}

/** The webhook receiver noting each inbound delivery's tag. */
export function webhookReceiver(arrivals: Arrivals) {
  return inboundWebhookReceiver((text) => arrivals.add(text as string | undefined));
}

/** One client on the tenant stream, reading `data:` lines. */
export async function sseClient(url: string, arrivals: Arrivals) {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: ac.signal });
  let connected!: () => void;
  const ready = new Promise<void>((r) => {
    connected = r;
  });
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of must(res.body, 'the SSE response body')) {
        buf += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buf.indexOf('\n');
        while (end >= 0) {
          const line = buf.slice(0, end);
          buf = buf.slice(end + 1);
          end = buf.indexOf('\n');
          if (line.startsWith(': connected')) connected();
          if (line.startsWith('data: ')) arrivals.add(JSON.parse(line.slice(6)).message);
        }
      }
    } catch {}
  })();
  await ready;
  return { close: () => ac.abort() };
}
