import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { SSEStreamingApi } from 'hono/streaming';

/** Where one SSE client's bytes go: a Node socket directly, or a web stream. */
export interface SseSink {
  write(chunk: Uint8Array | string): void;
  /** Bytes written but not yet handed to the network. */
  backlog(): number;
  /** Resolves when the client has gone. */
  readonly gone: Promise<void>;
  /** Cuts the client off at once (what is not sent yet is dropped). */
  end(): void;
  /** Ends the response once what was written is sent. */
  finish(): void;
}

/**
 * Under @hono/node-server the raw Node response is in the context: writing to it directly costs a
 * third of the memory per connection of the web-stream path (no Request/TransformStream/
 * ReadableStream per client), which matters with thousands of open streams.
 */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing && typeof (outgoing as ServerResponse).writeHead === 'function'
    ? (outgoing as ServerResponse)
    : undefined;
}

export function nodeSink(res: ServerResponse, headers: Record<string, string>): SseSink {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  res.flushHeaders();
  const gone = new Promise<void>((resolve) => res.once('close', () => resolve()));
  return {
    write: (chunk) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    },
    backlog: () => res.writableLength,
    gone,
    end: () => res.destroy(),
    finish: () => {
      if (!res.writableEnded) res.end();
    },
  };
}

/** The portable path (any runtime): Hono's `streamSSE`, with writes chained in order. */
export function webSink(stream: SSEStreamingApi): SseSink {
  let pendingBytes = 0;
  let chain = Promise.resolve();
  let finished: () => void = () => {};
  const gone = new Promise<void>((resolve) => {
    stream.onAbort(resolve);
    finished = resolve;
  });
  return {
    write: (chunk) => {
      if (stream.aborted || stream.closed) return;
      const size = typeof chunk === 'string' ? chunk.length : chunk.byteLength;
      pendingBytes += size;
      const settled = () => {
        pendingBytes -= size;
      };
      chain = chain.then(() => stream.write(chunk)).then(settled, settled);
    },
    backlog: () => pendingBytes,
    gone,
    end: () => stream.abort(),
    finish: () => {
      chain = chain.then(() => stream.close()).finally(finished);
    },
  };
}
