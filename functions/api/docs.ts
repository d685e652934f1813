import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type { AppEnv } from '#shared/http/context';

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;
type Asset = keyof typeof ASSETS;

const CDN = 'https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.35.0';

/** The packaged Swagger UI file, or undefined where it is not installed (a bundled Lambda). */
async function packaged(name: Asset): Promise<string | undefined> {
  try {
    return await readFile(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * `/docs`: Swagger UI over `/openapi.json`, served from the installed `swagger-ui-dist` so it works
 * with no internet (local mode); where the package is absent it falls back to the CDN.
 */
export function docsRoutes() {
  const r = new Hono<AppEnv>();
  const cache = new Map<Asset, Promise<string | undefined>>();
  const asset = (name: Asset) => {
    let p = cache.get(name);
    if (!p) {
      p = packaged(name);
      cache.set(name, p);
    }
    return p;
  };

  r.get('/', async (c) => {
    const base = (await asset('swagger-ui-bundle.js')) ? '/docs/assets' : CDN;
    return c.html(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Messaging session manager API</title>
    <link rel="stylesheet" href="${base}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${base}/swagger-ui-bundle.js"></script>
    <script>window.onload = () => { window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' }); };</script>
  </body>
</html>`);
  });

  r.get('/assets/:name', async (c) => {
    const name = c.req.param('name');
    if (!(name in ASSETS)) return c.notFound();
    const body = await asset(name as Asset);
    if (body === undefined) return c.notFound();
    return c.body(body, 200, {
      'content-type': ASSETS[name as Asset],
      'cache-control': 'public, max-age=86400',
    });
  });
  return r;
}
