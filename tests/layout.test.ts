import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

function cruise(cwd: string, dirs: string[]) {
  const r = spawnSync(depcruise, [...dirs, '--config', '.dependency-cruiser.cjs'], { cwd, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A throwaway tree with the project's rule and the given files. */
function tree(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'layout-'));
  for (const f of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json'])
    copyFileSync(join(root, f), join(dir, f));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('the layout rule (dependency-cruiser)', () => {
  it('holds for the tree as it is', () => {
    const r = cruise(root, ['functions', 'shared', 'connection-host', 'simulator']);
    expect(r.output).toContain('no dependency violations found');
    expect(r.status).toBe(0);
  });

  it('fails when shared/ imports a deployable, the host (even a host test) imports the API or the simulator, or a Lambda imports the simulator', () => {
    const dir = tree({
      'functions/api/app.ts':
        "import { network } from '../../simulator/network.ts';\nexport const app = network;\n",
      'functions/events/apply.ts': "import { app } from '../api/app.ts';\nexport const apply = app;\n",
      'shared/helper.ts': "import { app } from '../functions/api/app.ts';\nexport const helper = app;\n",
      'connection-host/host.ts': "import { app } from '../functions/api/app.ts';\nexport const host = app;\n",
      'connection-host/drivers/index.ts':
        "import { network } from '../../simulator/network.ts';\nexport const drivers = network;\n",
      'connection-host/drivers/index.test.ts':
        "import { network } from '../../simulator/network.ts';\nexport const t = network;\n",
      'simulator/network.ts': 'export const network = 1;\n',
    });
    made.push(dir);
    const r = cruise(dir, ['functions', 'shared', 'connection-host', 'simulator']);
    // Shown in the test log on purpose: this is what a violation looks like.
    console.log(r.output);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/shared-depends-on-no-deployable: shared\/helper\.ts → functions\/api\/app\.ts/);
    expect(r.output).toMatch(
      /host-imports-no-lambda-code: connection-host\/host\.ts → functions\/api\/app\.ts/,
    );
    expect(r.output).toMatch(
      /lambda-imports-no-host-or-simulator: functions\/api\/app\.ts → simulator\/network\.ts/,
    );
    expect(r.output).toMatch(
      /host-imports-no-simulator: connection-host\/drivers\/index\.ts → simulator\/network\.ts/,
    );
    expect(r.output).toMatch(
      /host-imports-no-simulator: connection-host\/drivers\/index\.test\.ts → simulator\/network\.ts/,
    );
    expect(r.output).toMatch(/lambdas-stay-apart: functions\/events\/apply\.ts → functions\/api\/app\.ts/);
  });

  it('keeps rooms: the outbound guard stands alone, the feed and templates stay off webhooks and messages', () => {
    const dir = tree({
      'shared/outbound/guard.ts': "import { a } from './address.ts';\nexport const g = a;\n",
      'shared/outbound/address.ts': "import { s } from '../sessions/session.ts';\nexport const a = s;\n",
      'shared/sessions/session.ts': "import { a } from '../outbound/address.ts';\nexport const s = a;\n",
      'shared/webhooks/payload.ts': 'export const p = 1;\n',
      'shared/stream/feed.ts': "import { p } from '../webhooks/payload.ts';\nexport const f = p;\n",
      'shared/presentation/sender.ts': "import { f } from '../stream/feed.ts';\nexport const r = f;\n",
      'functions/api/messages/send.ts': 'export const send = 1;\n',
      'functions/api/templates/routes.ts':
        "import { send } from '../messages/send.ts';\nexport const t = send;\n",
    });
    made.push(dir);
    const r = cruise(dir, ['functions', 'shared']);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(
      /outbound-guard-stands-alone: shared\/outbound\/address\.ts → shared\/sessions\/session\.ts/,
    );
    expect(r.output).toMatch(
      /address-rules-only-through-the-guard: shared\/sessions\/session\.ts → shared\/outbound\/address\.ts/,
    );
    expect(r.output).not.toMatch(/address-rules-only-through-the-guard: shared\/outbound\/guard\.ts/);
    expect(r.output).toMatch(
      /stream-imports-no-webhooks: shared\/stream\/feed\.ts → shared\/webhooks\/payload\.ts/,
    );
    expect(r.output).toMatch(
      /presentation-belongs-to-no-channel: shared\/presentation\/sender\.ts → shared\/stream\/feed\.ts/,
    );
    expect(r.output).toMatch(
      /templates-import-no-messages: functions\/api\/templates\/routes\.ts → functions\/api\/messages\/send\.ts/,
    );
  });

  it('keeps the API rooms one way: media, sessions and usage import nothing from the rooms that use them', () => {
    const dir = tree({
      'functions/api/messages/send.ts': 'export const send = 1;\n',
      'functions/api/usage/routes.ts': 'export const usage = 1;\n',
      'functions/api/media/routes.ts':
        "import { send } from '../messages/send.ts';\nexport const m = send;\n",
      'functions/api/sessions/media-routes.ts':
        "import { send } from '../messages/send.ts';\nexport const s = send;\n",
      'functions/api/sessions/routes.ts':
        "import { usage } from '../usage/routes.ts';\nexport const r = usage;\n",
      'functions/api/sessions-prefix.ts':
        "import { usage } from './usage/routes.ts';\nexport const p = usage;\n",
    });
    made.push(dir);
    const r = cruise(dir, ['functions']);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(
      /media-imports-no-messages: functions\/api\/media\/routes\.ts → functions\/api\/messages\/send\.ts/,
    );
    expect(r.output).toMatch(
      /sessions-import-no-messages: functions\/api\/sessions\/media-routes\.ts → functions\/api\/messages\/send\.ts/,
    );
    expect(r.output).toMatch(
      /sessions-import-no-usage: functions\/api\/sessions\/routes\.ts → functions\/api\/usage\/routes\.ts/,
    );
    expect(r.output).not.toMatch(/sessions-prefix\.ts/);
  });

  it('fails when a deployable, even a test of one, imports the local stand-in for the Lambda trigger', () => {
    const dir = tree({
      'scripts/local/combined-lanes.ts': 'export const combinedLanes = 1;\n',
      'shared/queue/lanes.test.ts':
        "import { combinedLanes } from '../../scripts/local/combined-lanes.ts';\nexport const t = combinedLanes;\n",
    });
    made.push(dir);
    const r = cruise(dir, ['shared', 'scripts']);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(
      /local-trigger-stays-local: shared\/queue\/lanes\.test\.ts → scripts\/local\/combined-lanes\.ts/,
    );
  });
});

describe('Lambda bundles', () => {
  it.each(['api', 'events', 'webhooks'])(
    'functions/%s holds only its own folder and shared/',
    async (name) => {
      const out = await build({
        entryPoints: [join(root, 'functions', name, 'handler.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        write: false,
        metafile: true,
        logLevel: 'silent',
        outfile: join(tmpdir(), `${name}.mjs`),
      });
      const inputs = Object.keys(out.metafile.inputs);
      expect(inputs.length).toBeGreaterThan(3);
      expect(inputs.filter((f) => !f.startsWith(`functions/${name}/`) && !f.startsWith('shared/'))).toEqual(
        [],
      );
    },
  );
});
