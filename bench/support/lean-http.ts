import { Agent, request } from 'node:http';

/**
 * A plain `node:http` JSON POST over kept-alive connections: what a typical integrator's client does
 * (axios and most SDKs sit on it). The benches time the service with it instead of `fetch`, whose
 * own cost per request (undici's streams and abort signals, about a millisecond here) would run on
 * the same event loop as the service it is timing and be counted as the service's work.
 */
export function leanJsonPost(base: string, token?: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(base);
  const post = (path: string, data: Buffer, again: boolean): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': data.length,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {}
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // The server closed an idle kept-alive connection just as this request reused it: the
        // request was not read, so it is sent again once (Node's advice for keep-alive clients).
        if (again && req.reusedSocket && err.code === 'ECONNRESET')
          post(path, data, false).then(resolve, reject);
        else reject(err);
      });
      req.end(data);
    });
  return (path: string, body: unknown) => post(path, Buffer.from(JSON.stringify(body)), true);
}
