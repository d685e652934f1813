import { createServer } from 'node:net';

/** Every server local mode starts listens here only (docs/security.md). */
export const LOOPBACK = '127.0.0.1';

/** A TCP port on loopback that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, LOOPBACK, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
