import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../functions/api/app.ts';
import { simulatorRoutes } from '../simulator/routes.ts';
import { must } from './support/must.ts';

/**
 * README.md and docs/*.md name files, folders, routes, environment variables and sections; each named
 * thing must exist, so a rename or a deletion fails here instead of leaving a false sentence behind.
 * Fenced code blocks are examples and are not read.
 */
const root = resolve(import.meta.dirname, '..');
const SKIP_DIRS = new Set(['node_modules', '.git', '.data', 'cdk.out', 'coverage', 'dist']);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(relative(root, path));
  }
  return out;
}

const files = walk(root);
/**
 * Every document but the benchmarks' history, a record of past passes written as each pass was:
 * the files and figures it names were true on its dates (links into it are still checked).
 */
const HISTORY = 'docs/benchmarks-history.md';
const docs = ['README.md', ...files.filter((f) => /^docs\/[^/]+\.md$/.test(f) && f !== HISTORY).sort()];
const topLevel = new Set(readdirSync(root).filter((n) => !SKIP_DIRS.has(n)));

/** A document's lines outside fenced code, with their line numbers. */
function prose(file: string): Array<{ line: number; text: string }> {
  let fenced = false;
  const out: Array<{ line: number; text: string }> = [];
  for (const [i, text] of readFileSync(join(root, file), 'utf8').split('\n').entries()) {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.push({ line: i + 1, text });
  }
  return out;
}

const spans = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => must(m[1], 'm[1]').trim());
const links = (text: string) =>
  [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => must(m[1], 'm[1]'))
    .filter((l) => !/^[a-z]+:/i.test(l));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of prose(file)) {
    const h = text.match(/^#{1,6}\s+(.+?)\s*#*\s*$/);
    if (!h) continue;
    const base = must(h[1], 'h[1]')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

const PLACEHOLDER = /[<{*…[]|\.\.\.|^:/;
const exists = (path: string) => existsSync(join(root, path));

/**
 * A span that names a repository path: its first segment is a top-level entry. Segments from the
 * first placeholder (`<resource>`, `{id}`, `*`, `…`) on are not checked.
 */
function repoPath(span: string): string | undefined {
  if (/\s/.test(span) || !span.includes('/')) return undefined;
  const segments = span.replace(/\/$/, '').split('/');
  if (!topLevel.has(must(segments[0], 'segments[0]'))) return undefined;
  const fixed: string[] = [];
  for (const s of segments) {
    if (PLACEHOLDER.test(s)) break;
    fixed.push(s.replace(/[:#].*$/, ''));
  }
  return fixed.join('/');
}

const SOURCE_FILE = /^[\w.-]+\.(ts|mjs|cjs|js|java|json|md|yml|yaml|sql)$/;
/** An npm package's name (`tesseract.js`) is not a file of ours. */
const isPackage = (name: string) => existsSync(join(root, 'node_modules', name, 'package.json'));
/**
 * File names that are not in the repository on purpose: `index.mjs` is what the Lambda bundler
 * writes (docs/deploy.md); `x.ts` and `x.test.ts` stand for any module and its test.
 */
const NOT_IN_TREE = new Set(['index.mjs', 'x.ts', 'x.test.ts']);

describe('README.md and docs/*.md', () => {
  it('name only files and folders that exist', () => {
    const missing: string[] = [];
    for (const doc of docs) {
      for (const { line, text } of prose(doc)) {
        // A table row whose first cell is a folder names its files relative to that folder.
        const folder = text.startsWith('|') ? spans(text.split('|')[1] ?? '').map(repoPath)[0] : undefined;
        for (const span of spans(text)) {
          const path = repoPath(span);
          if (path !== undefined) {
            if (!exists(path)) missing.push(`${doc}:${line} \`${span}\``);
            continue;
          }
          if (!SOURCE_FILE.test(span) || NOT_IN_TREE.has(span) || isPackage(span)) continue;
          const within = folder && exists(folder) && statSync(join(root, folder)).isDirectory() ? folder : '';
          if (!files.some((f) => f.startsWith(within) && f.split('/').at(-1) === span))
            missing.push(`${doc}:${line} \`${span}\`${within ? ` (in ${within})` : ''}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('name only npm scripts that exist, whose files exist', () => {
    const scripts: Record<string, string> = JSON.parse(
      readFileSync(join(root, 'package.json'), 'utf8'),
    ).scripts;
    const wrong: string[] = [];
    for (const doc of docs)
      for (const { line, text } of prose(doc))
        for (const m of text.matchAll(/`npm run ([\w:-]+)/g))
          if (!scripts[must(m[1], 'm[1]')]) wrong.push(`${doc}:${line} npm run ${m[1]}`);
    for (const [name, command] of Object.entries(scripts))
      for (const file of command.match(/[\w./-]+\.(?:ts|mjs|cjs|js)\b/g) ?? [])
        if (!exists(file) && !file.startsWith('.')) wrong.push(`package.json scripts.${name}: no ${file}`);
    expect(wrong).toEqual([]);
  });

  it('link only to files and sections that exist, inside the repository', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const { line, text } of prose(doc)) {
        for (const link of links(text)) {
          const [target, anchor] = link.split('#') as [string, string | undefined];
          const file = target ? relative(root, resolve(root, dirname(doc), target)) : doc;
          if (file.startsWith('..') || !exists(file)) {
            broken.push(`${doc}:${line} ${link}: no file ${file}`);
            continue;
          }
          if (anchor && file.endsWith('.md') && !anchors(file).has(decodeURIComponent(anchor)))
            broken.push(`${doc}:${line} ${link}: no section #${anchor} in ${file}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  describe('routes', () => {
    let routes: string[][] = [];
    beforeAll(async () => {
      const app = await createApp();
      const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, object> };
      const sim = simulatorRoutes().routes.map((r) => r.path.replace(/:(\w+)/g, '{$1}'));
      routes = [...Object.keys(doc.paths), ...sim].map((p) => p.split('/').filter(Boolean));
    });

    const ROUTE =
      /^(?:(?:GET|POST|PUT|PATCH|DELETE)\s+)?(\/(?:api|view|_sim|health|metrics|docs|openapi\.json)\b\S*)$/;
    const param = (s: string) => /^[{:<].*|^\*$/.test(s);

    /** Whether some route has this path: a parameter matches any segment, `*` or `...` any rest. */
    function served(path: string): boolean {
      const segments = path
        .replace(/[?#].*$/, '')
        .split('/')
        .filter(Boolean);
      // `/_sim/*`, `/api/public/portal/...`, and a prefix named alone (`/api`, `/_sim/`).
      const rest =
        segments.at(-1) === '*' ||
        segments.at(-1) === '...' ||
        segments.at(-1) === '…' ||
        segments.length === 1 ||
        path.endsWith('/');
      const fixed = rest && segments.length > 1 && !path.endsWith('/') ? segments.slice(0, -1) : segments;
      return routes.some(
        (r) =>
          (rest ? r.length >= fixed.length : r.length === fixed.length) &&
          fixed.every((s, i) => s === r[i] || param(s) || param(must(r[i], 'r[i]'))),
      );
    }

    it('name only routes the service serves', () => {
      expect(routes.length).toBeGreaterThan(50);
      const unknown: string[] = [];
      for (const doc of docs)
        for (const { line, text } of prose(doc))
          for (const span of spans(text)) {
            const m = span.match(ROUTE);
            if (m && !served(must(m[1], 'm[1]'))) unknown.push(`${doc}:${line} \`${span}\``);
          }
      expect(unknown).toEqual([]);
      // The check can fail: a route nobody serves is caught.
      expect(served('/api/sessions/{sessionId}/qr')).toBe(true);
      expect(served('/api/sessions/{sessionId}/qr/nowhere')).toBe(false);
      expect(served('/api/nowhere/{id}')).toBe(false);
    });
  });

  it('name only environment variables the code reads, and other constants the code has', () => {
    const code = files
      .filter((f) => /\.(ts|mjs|cjs|java)$/.test(f) || f === '.ci/run')
      .filter((f) => !f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(root, f), 'utf8'))
      .join('\n');
    const envSchema = readFileSync(join(root, 'shared/config/env.ts'), 'utf8');
    const read = new Set([
      ...[...envSchema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => must(m[1], 'm[1]')),
      ...[...code.matchAll(/(?:process\.env|env\(\)|\benv)(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g)].map((m) =>
        must(m[1], 'm[1]'),
      ),
      // The stack sets its functions' and hosts' variables by name (infra/).
      ...files
        .filter((f) => f.startsWith('infra/') && f.endsWith('.ts'))
        .flatMap((f) => [
          ...readFileSync(join(root, f), 'utf8').matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+):/g),
          ...readFileSync(join(root, f), 'utf8').matchAll(/addEnvironment\(\s*'([A-Z][A-Z0-9_]+)'/g),
        ])
        .map((m) => must(m[1], 'm[1]')),
    ]);
    const words = new Set(code.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g));
    const NAME = /^[A-Z][A-Z0-9]*(?:_(?:[A-Z0-9]+|\*))+$/;
    /** Names that are no variable of ours: `UPPER_SNAKE` is how docs/api.md names the codes' form. */
    const NOT_OURS = new Set(['UPPER_SNAKE']);
    const matches = (name: string, pool: Set<string>) => {
      if (!name.includes('*')) return pool.has(name);
      const re = new RegExp(`^${name.replace(/\*/g, '[A-Z0-9_]+')}$`);
      return [...pool].some((n) => re.test(n));
    };

    const wrong: string[] = [];
    for (const doc of docs) {
      let variableTable = false;
      for (const { line, text } of prose(doc)) {
        if (!text.startsWith('|')) variableTable = false;
        else if (/^\|\s*Variable\s*\|/i.test(text)) variableTable = true;
        const firstCell = text.startsWith('|') ? (text.split('|')[1] ?? '') : '';
        for (const span of spans(text)) {
          for (const name of span.split(/[\s,/=]+/).filter((n) => NAME.test(n) && !NOT_OURS.has(n))) {
            // A configuration table's first column names variables the code reads; anything else
            // in capitals (error codes, statuses) must at least be in the code.
            const asVariable = variableTable && firstCell.includes(`\`${span}\``);
            if (asVariable ? !matches(name, read) : !matches(name, words) && !matches(name, read))
              wrong.push(`${doc}:${line} ${name}${asVariable ? ' (not read as a variable)' : ''}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
