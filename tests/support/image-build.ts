import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { must } from './must.ts';

/**
 * Replays a Dockerfile without Docker, so a test sees what the image's build sees: each stage gets a
 * folder of its own holding exactly what its COPY lines bring (from the build context, minus
 * `.dockerignore`, or from an earlier stage), and its RUN lines run there. Only what our Dockerfiles
 * use is understood; anything else throws rather than being skipped unnoticed.
 *
 * RUN lines: `npm ci …` becomes a symlink to the repository's node_modules (same lockfile; dev
 * packages included), `apt-get …` is skipped (system packages: ffmpeg, espeak-ng), `node …` runs.
 */

type Step =
  | { kind: 'copy'; from?: string; sources: string[]; dest: string }
  | { kind: 'run'; command: string }
  | { kind: 'workdir'; path: string }
  | { kind: 'env'; values: Record<string, string> }
  | { kind: 'cmd'; argv: string[] };

export interface Stage {
  name?: string;
  steps: Step[];
}

/** The Dockerfile's instructions, stage by stage (continuation lines joined, comments dropped). */
export function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/);
    const args = line.slice(op.length).trim();
    const stage = stages.at(-1);
    switch (op.toUpperCase()) {
      case 'FROM': {
        const as = /\bAS\s+(\S+)$/i.exec(args);
        stages.push(as?.[1] ? { name: as[1], steps: [] } : { steps: [] });
        continue;
      }
      case 'EXPOSE':
      case 'USER':
        continue;
    }
    if (!stage) throw new Error(`instruction before FROM: ${line}`);
    switch (op.toUpperCase()) {
      case 'COPY': {
        if (args.startsWith('[')) throw new Error(`COPY in JSON form is not replayed: ${line}`);
        const flags = rest.filter((a) => a.startsWith('--'));
        const paths = rest.filter((a) => !a.startsWith('--'));
        const unknown = flags.filter((f) => !f.startsWith('--from='));
        if (unknown.length > 0 || paths.length < 2) throw new Error(`COPY not replayed: ${line}`);
        const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
        stage.steps.push({
          kind: 'copy',
          ...(from ? { from } : {}),
          sources: paths.slice(0, -1),
          dest: must(paths.at(-1), 'paths.at(-1)'),
        });
        break;
      }
      case 'RUN':
        stage.steps.push({ kind: 'run', command: args });
        break;
      case 'WORKDIR':
        stage.steps.push({ kind: 'workdir', path: args });
        break;
      case 'ENV': {
        const values: Record<string, string> = {};
        for (const pair of rest) {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new Error(`ENV in the old "key value" form is not replayed: ${line}`);
          values[pair.slice(0, eq)] = pair.slice(eq + 1);
        }
        stage.steps.push({ kind: 'env', values });
        break;
      }
      case 'CMD':
        stage.steps.push({ kind: 'cmd', argv: JSON.parse(args) as string[] });
        break;
      default:
        throw new Error(`instruction not replayed: ${line}`);
    }
  }
  return stages;
}

/**
 * `.dockerignore` as a predicate on context-relative paths (`a/b.ts`). As Docker reads it: patterns
 * are anchored at the context root, `*` and `?` stay within one path segment, `**` spans any number,
 * a pattern that matches a folder excludes all it holds, and a later `!pattern` re-includes.
 */
export function dockerIgnore(text: string): (path: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = posix.normalize((negate ? l.slice(1) : l).trim()).replace(/^\/+|\/+$/g, '');
      return { negate, re: globToRegExp(pattern) };
    });
  return (path) => {
    // The path and each folder above it: `dist` excludes `dist/host.mjs`.
    const parts = path.split('/');
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const { negate, re } of rules) if (candidates.some((c) => re.test(c))) ignored = !negate;
    return ignored;
  };
}

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = must(pattern[i], 'pattern[i]');
    if (ch === '*' && pattern[i + 1] === '*') {
      // `**/` matches zero or more folders; a trailing `**` matches anything below.
      re += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export interface ReplayedImage {
  /** Each stage's folder (its WORKDIR), by name or index. */
  stageDirs: Map<string, string>;
  /** The last stage's folder, its ENV and its CMD: what `docker run` would start. */
  runDir: string;
  env: Record<string, string>;
  cmd: string[];
}

/**
 * Lays out and builds every stage of `dockerfile` under `outDir`, from `context` (a repository root
 * whose node_modules the `npm ci` steps link to).
 */
export function replayDockerfile(opts: {
  context: string;
  dockerfile: string;
  outDir: string;
}): ReplayedImage {
  const ignoreFile = join(opts.context, '.dockerignore');
  const ignored = dockerIgnore(existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '');
  const stages = parseDockerfile(readFileSync(opts.dockerfile, 'utf8'));
  const stageDirs = new Map<string, string>();
  const workdirs = new Map<string, string>();
  let last: ReplayedImage | undefined;
  for (const [index, stage] of stages.entries()) {
    const dir = join(opts.outDir, stage.name ?? `stage-${index}`);
    mkdirSync(dir, { recursive: true });
    let workdir = '/';
    const env: Record<string, string> = {};
    let cmd: string[] = [];
    const inStage = (p: string) => {
      const abs = posix.resolve(workdir, p);
      const rel = posix.relative(workdir, abs);
      if (rel.startsWith('..')) throw new Error(`path ${p} is outside WORKDIR ${workdir}`);
      return join(dir, rel);
    };
    for (const step of stage.steps) {
      switch (step.kind) {
        case 'workdir':
          workdir = posix.resolve(workdir, step.path);
          break;
        case 'env':
          Object.assign(env, step.values);
          break;
        case 'cmd':
          cmd = step.argv;
          break;
        case 'copy': {
          const intoFolder = step.dest.endsWith('/') || step.sources.length > 1;
          for (const source of step.sources) {
            let from: string;
            let filter: (src: string) => boolean = () => true;
            if (step.from) {
              const fromDir = stageDirs.get(step.from);
              const fromWork = workdirs.get(step.from);
              if (!fromDir || !fromWork) throw new Error(`COPY --from=${step.from}: no such stage`);
              const rel = posix.relative(fromWork, source);
              if (rel.startsWith('..')) throw new Error(`COPY --from path ${source} is outside its WORKDIR`);
              from = join(fromDir, rel);
            } else {
              from = join(opts.context, source);
              filter = (src) => !ignored(relative(opts.context, src).split('\\').join('/'));
              if (!filter(from)) throw new Error(`COPY ${source}: excluded by .dockerignore`);
            }
            if (!existsSync(from)) throw new Error(`COPY ${source}: not in the build context`);
            const name = must(
              source.split('/').filter(Boolean).at(-1),
              "source.split('/').filter(Boolean).at(-1)",
            );
            const target =
              intoFolder && !statSync(from).isDirectory()
                ? join(inStage(step.dest), name)
                : inStage(step.dest);
            mkdirSync(dirname(target), { recursive: true });
            cpSync(from, target, { recursive: true, filter });
          }
          break;
        }
        case 'run': {
          const cwd = inStage('.');
          mkdirSync(cwd, { recursive: true });
          if (/^npm ci\b/.test(step.command)) {
            if (!existsSync(join(cwd, 'node_modules')))
              symlinkSync(join(opts.context, 'node_modules'), join(cwd, 'node_modules'), 'dir');
          } else if (/^apt-get\b/.test(step.command)) {
            // System packages (ffmpeg, espeak-ng) are not needed for the host to start.
          } else if (/^node\s/.test(step.command)) {
            const argv = step.command.split(/\s+/).slice(1);
            execFileSync(process.execPath, argv, { cwd, stdio: 'inherit' });
          } else throw new Error(`RUN not replayed: ${step.command}`);
          break;
        }
      }
    }
    stageDirs.set(stage.name ?? String(index), inStage('.'));
    workdirs.set(stage.name ?? String(index), workdir);
    last = { stageDirs, runDir: inStage('.'), env, cmd };
  }
  if (!last) throw new Error('no stage in the Dockerfile');
  return last;
}
