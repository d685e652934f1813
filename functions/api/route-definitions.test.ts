import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house rule for routers (docs/architecture.md, "Validate at the edge"): a route's definition
 * lives in the `<router>.schema.ts` beside its router, so a router reads as a list of routes and
 * their handlers. `commands/schemas.ts` holds the session actions' route factory.
 */
const here = import.meta.dirname;
const DEFINES_ROUTES = /\b(createRoute|routesTagged)\(/;
const ALLOWED = new Set(['commands/schemas.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path.endsWith(join('console', 'app')) ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('route definitions', () => {
  it('are made only in *.schema.ts files, never in a router', () => {
    const routers = sources(here)
      .map((p) => relative(here, p))
      .filter((p) => !p.endsWith('.schema.ts') && !ALLOWED.has(p))
      .filter((p) => DEFINES_ROUTES.test(readFileSync(join(here, p), 'utf8')));
    expect(routers, 'move these route definitions to <router>.schema.ts').toEqual([]);
  });
});
