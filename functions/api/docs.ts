import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { ASSETS, assetRoute, pageRoute } from './docs.schema.ts';

type Asset = keyof typeof ASSETS;

/**
 * The packaged Swagger UI file (the installed `swagger-ui-dist`; a Lambda bundle ships these two
 * files, infra/lambda-bundle.ts), or undefined where it is missing.
 */
async function packaged(name: Asset): Promise<string | undefined> {
  try {
    return await readFile(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * `/docs`: Swagger UI over `/openapi.json`, its script and style sheet served from the installed
 * `swagger-ui-dist`: the page loads nothing from a third party and works with no internet.
 */
export function docsRoutes() {
  const r = router();
  const cache = new Map<Asset, Promise<string | undefined>>();
  const asset = (name: Asset) => {
    let p = cache.get(name);
    if (!p) {
      p = packaged(name);
      cache.set(name, p);
    }
    return p;
  };

  r.openapi(pageRoute, async (c) => {
    return c.html(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Messaging session manager API</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script>window.onload = () => { window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' }); };</script>
  </body>
</html>`);
  });

  r.openapi(assetRoute, async (c) => {
    const { name } = c.req.valid('param');
    if (!(name in ASSETS)) throw new NotFoundError(`no asset ${name}`);
    const body = await asset(name as Asset);
    if (body === undefined) throw new NotFoundError(`${name} is not packaged here`);
    return c.body(body, 200, {
      'content-type': ASSETS[name as Asset],
      'cache-control': 'public, max-age=86400',
    });
  });
  return r;
}
