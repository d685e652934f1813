import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import type { FakeAi, FakeAiBehaviour, FakeAiRequest } from './fake-ai.ts';

/**
 * The fake AI provider runs once, in the global setup, beside the service that calls it; tests run in
 * worker processes. This small HTTP control API lets them read what the fake received and tell a key
 * how to behave: `GET /requests`, `POST /behave` `{ key, behaviour }`.
 */
export async function serveFakeAiControl(fake: FakeAi) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET' && req.url === '/requests') return send(200, fake.requests);
      if (req.method === 'POST' && req.url === '/behave') {
        const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          key: string;
          behaviour: FakeAiBehaviour;
        };
        fake.behave(b.key, b.behaviour);
        return send(200, { ok: true });
      }
      send(404, { error: 'unknown control path' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** In a test worker: the global setup's fake AI provider. */
export const fakeAi = {
  async requests(): Promise<FakeAiRequest[]> {
    const r = await fetch(`${inject('fakeAiControlUrl')}/requests`);
    return (await r.json()) as FakeAiRequest[];
  },
  async behave(key: string, behaviour: FakeAiBehaviour): Promise<void> {
    await fetch(`${inject('fakeAiControlUrl')}/behave`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, behaviour }),
    });
  },
};

declare module 'vitest' {
  export interface ProvidedContext {
    fakeAiControlUrl: string;
  }
}
