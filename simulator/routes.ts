import { type Context, Hono } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { limitOf, SimBodyTooLargeError } from './routes/body.ts';
import { addControlRoutes } from './routes/control.ts';
import { addDeviceRoutes } from './routes/device.ts';

/** Throws under NODE_ENV=production: the simulated network asks for no credentials. */
export function assertSimulatorAllowed(): void {
  if (process.env.NODE_ENV === 'production')
    throw new Error(
      'the simulated network (/_sim/*, MESSAGING_DRIVER=simulator) needs no credentials and is for tests and demos only; it does not start with NODE_ENV=production',
    );
}

/**
 * The simulator's HTTP face: test controls (routes/control.ts) and the device protocol the driver
 * speaks (routes/device.ts), each body bounded by its route's limit (routes/body.ts). It asks for
 * no credentials (it is a stand-in network for tests and demos), so it refuses to exist in
 * production.
 */
export function simulatorRoutes() {
  assertSimulatorAllowed();
  const r = new Hono<AppEnv>();
  const tooLarge = (c: Context<AppEnv>) => {
    c.header('connection', 'close');
    return c.json(errorBody('PAYLOAD_TOO_LARGE', `request body exceeds ${limitOf(c.req.path)} bytes`), 413);
  };
  // A declared length over the limit is refused before any of the body is read.
  r.use('*', async (c, next) => {
    if (Number(c.req.header('content-length') ?? 0) > limitOf(c.req.path)) return tooLarge(c);
    return next();
  });
  r.onError((err, c) =>
    err instanceof SimBodyTooLargeError ? tooLarge(c) : c.json(errorBody('INTERNAL', 'simulator error'), 500),
  );
  addControlRoutes(r);
  addDeviceRoutes(r);
  return r;
}
