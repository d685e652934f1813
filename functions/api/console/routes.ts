import { createHash } from 'node:crypto';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { loadConsoleAssets } from './assets.ts';
import type { ConsoleAssets } from './build.ts';
import { assetRoute, pageRoute } from './routes.schema.ts';

const TYPES: Record<keyof ConsoleAssets, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/**
 * The page may load and call only this origin: no inline script, no third party. `blob:` images are
 * the QR codes, fetched with the token and shown from memory; the frame ban keeps the page from being
 * overlaid by another site (clickjacking).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const version = (assets: ConsoleAssets) =>
  createHash('sha256').update(assets['app.js']).update(assets['app.css']).digest('hex').slice(0, 12);

/** `/console`: the page, and its script and style sheet built from functions/api/console/app/. */
export function consoleRoutes() {
  const r = router();
  // Built once, starting now (the app's start locally); a failed build is tried again on the next request.
  let assets: Promise<ConsoleAssets> | undefined;
  const load = () => {
    if (!assets) {
      assets = loadConsoleAssets();
      assets.catch(() => {
        assets = undefined;
      });
    }
    return assets;
  };
  load().catch(() => undefined);

  r.openapi(pageRoute, async (c) => {
    // The asset URLs carry the build's hash, so a browser never runs a script with an older style sheet.
    const v = version(await load());
    return c.html(
      `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Console · Messaging session manager</title>
    <link rel="stylesheet" href="/console/assets/app.css?v=${v}" />
  </head>
  <body>
    <div id="app"></div>
    <noscript>The console needs JavaScript.</noscript>
    <script type="module" src="/console/assets/app.js?v=${v}"></script>
  </body>
</html>`,
      200,
      { ...SECURITY_HEADERS, 'cache-control': 'no-store' },
    );
  });

  r.openapi(assetRoute, async (c) => {
    const { name } = c.req.valid('param');
    if (!Object.hasOwn(TYPES, name)) throw new NotFoundError(`no console asset ${name}`);
    const key = name as keyof ConsoleAssets;
    const built = await load();
    return c.body(built[key], 200, {
      ...SECURITY_HEADERS,
      'content-type': TYPES[key],
      // The page names each build by its hash: a new build is a new URL.
      'cache-control':
        c.req.query('v') === version(built) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });
  return r;
}
