import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'hono';
import { SSEStreamingApi } from 'hono/streaming';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeResponse, nodeSink, type SseSink, webSink } from './sink.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A real HTTP server whose one response is a node sink, and a client reading it. */
async function nodePair() {
  let sink: SseSink | undefined;
  const opened = new Promise<SseSink>((resolve) => {
    const server = createServer((_req, res) => {
      sink = nodeSink(res, { 'x-request-id': 'req-1' });
      resolve(sink);
    });
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const req = request({ host: '127.0.0.1', port, path: '/stream' });
      req.on('response', (res) => {
        client.status = res.statusCode;
        client.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          client.text += chunk;
        });
        res.on('close', () => {
          client.ended = true;
        });
      });
      req.on('error', () => {});
      client.abort = () => req.destroy();
      req.end();
    });
  });
  const client = {
    status: 0 as number | undefined,
    headers: {} as Record<string, unknown>,
    text: '',
    ended: false,
    abort: () => {},
  };
  return { sink: await opened, client };
}

/** Waits until the event loop has made `cond` true. */
const until = (cond: () => boolean, what: string) =>
  vi.waitFor(() => {
    if (!cond()) throw new Error(`still waiting for ${what}`);
  });

describe('nodeResponse', () => {
  it('finds the raw Node response under @hono/node-server, and nothing elsewhere', () => {
    const res = { writeHead: () => {} } as unknown as ServerResponse;
    expect(nodeResponse({ env: { outgoing: res } } as unknown as Context)).toBe(res);
    expect(nodeResponse({ env: undefined } as unknown as Context)).toBeUndefined();
    expect(nodeResponse({ env: { outgoing: {} } } as unknown as Context)).toBeUndefined();
  });
});

describe('nodeSink', () => {
  it('answers an event stream with the extra headers and writes chunks in order', async () => {
    const { sink, client } = await nodePair();
    sink.write(': connected\n\n');
    sink.write(new TextEncoder().encode('id: 1\ndata: {}\n\n'));
    await until(() => client.text.includes('data: {}'), 'both chunks');
    expect(client.status).toBe(200);
    expect(client.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': 'req-1',
    });
    expect(client.text).toBe(': connected\n\nid: 1\ndata: {}\n\n');
    expect(sink.backlog()).toBe(0);
  });

  it('resolves `gone` when the client leaves', async () => {
    const { sink, client } = await nodePair();
    let gone = false;
    void sink.gone.then(() => {
      gone = true;
    });
    client.abort();
    await until(() => gone, 'gone');
  });

  it('`end` cuts the client off', async () => {
    const { sink, client } = await nodePair();
    sink.write(': ping\n\n');
    await until(() => client.text.length > 0, 'the ping');
    sink.end();
    await until(() => client.ended, 'the client sees the end');
    await sink.gone;
  });
});

describe('webSink', () => {
  function webPair() {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const stream = new SSEStreamingApi(writable, readable);
    return { sink: webSink(stream), body: stream.responseReadable.getReader() };
  }

  it('writes in order and counts the bytes not yet taken by the reader', async () => {
    const { sink, body } = webPair();
    sink.write(': connected\n\n');
    sink.write(new TextEncoder().encode('id: 1\ndata: {}\n\n'));
    expect(sink.backlog()).toBe(13 + 16);
    let text = '';
    const decoder = new TextDecoder();
    while (!text.includes('data: {}')) {
      const { value } = await body.read();
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe(': connected\n\nid: 1\ndata: {}\n\n');
    await until(() => sink.backlog() === 0, 'the backlog drains');
  });

  it('resolves `gone` when the reader cancels, then writes nothing; `end` aborts the stream', async () => {
    const first = webPair();
    await first.body.cancel();
    await first.sink.gone;
    first.sink.write('late\n\n');
    expect(first.sink.backlog()).toBe(0);

    const second = webPair();
    second.sink.end();
    await second.sink.gone;
  });
});
