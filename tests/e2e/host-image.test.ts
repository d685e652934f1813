import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local/free-port.ts';
import { type BaileysStack, linkByQr, shopNetwork, startBaileysStack } from '../support/baileys-host.ts';
import { waitFor } from '../support/client.ts';
import type { FakeNetwork, FakeUser } from '../support/fake-network/index.ts';
import { dockerIgnore, replayDockerfile } from '../support/image-build.ts';
import { must } from '../support/must.ts';

const root = resolve(import.meta.dirname, '../..');
let out: string | undefined;
let stack: BaileysStack | undefined;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;

beforeAll(async () => {
  ({ net, me, asha } = await shopNetwork({ me: '919811100071', asha: '14155550171' }));
});

afterAll(async () => {
  await stack?.stop();
  await net?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('.dockerignore, read as Docker reads it', () => {
  const ignored = dockerIgnore('node_modules\n*.log\nsimulator\ndocs/**/*.png\n!docs/keep/a.png\n');
  it.each<[string, boolean]>([
    ['node_modules', true],
    ['node_modules/hono/package.json', true],
    ['simulator/protocol.ts', true],
    ['connection-host/drivers/simulator.ts', false],
    ['host.log', true],
    ['logs/host.log', false],
    ['docs/img/x.png', true],
    ['docs/x.png', true],
    ['docs/keep/a.png', false],
    ['shared/config/env.ts', false],
  ])('%s → ignored %s', (path, expected) => {
    expect(ignored(path)).toBe(expected);
  });
});

describe('the connection host image, built from its own context', () => {
  it('builds from exactly what the Dockerfile copies, holds no simulator code, and its CMD links a phone and serves health', async () => {
    out = mkdtempSync(join(tmpdir(), 'host-image-'));
    // What `docker build -f connection-host/Dockerfile .` does (the context cdk deploy gives it).
    const image = replayDockerfile({
      context: root,
      dockerfile: join(root, 'connection-host', 'Dockerfile'),
      outDir: out,
    });
    const buildDir = must(image.stageDirs.get('build'), "image.stageDirs.get('build')");
    expect(existsSync(join(buildDir, 'connection-host', 'main.ts'))).toBe(true);
    expect(existsSync(join(buildDir, 'simulator'))).toBe(false);
    expect(image.cmd[0]).toBe('node');
    const [, ...argv] = image.cmd;
    const bundle = join(image.runDir, must(argv[0], 'argv[0]'));
    // The bundle's sources (its source map): the host and shared code, never the simulated network.
    const sources = (JSON.parse(readFileSync(`${bundle}.map`, 'utf8')).sources as string[]).filter(
      (s) => !s.includes('node_modules/'),
    );
    expect(sources.some((s) => s.endsWith('connection-host/main.ts'))).toBe(true);
    expect(sources.filter((s) => /(^|\/)(simulator|tests|scripts\/local)\//.test(s))).toEqual([]);

    // The image's CMD in the runtime stage's folder, with its ENV; against the local stack and the
    // fake network's edge (whose certificate root Baileys trusts only under NODE_ENV=test).
    stack = await startBaileysStack(net, { prefix: 'hi' });
    const port = await freePort();
    stack.startHost(
      { ...image.env, NODE_ENV: 'test', HOST_HTTP_PORT: String(port), HOST_ID: 'image' },
      { argv, cwd: image.runDir },
    );
    const { sessionId } = await linkByQr(stack.admin, me, 'image host');
    const sent = await stack.admin.post('/api/messages/send', {
      sessionId,
      to: '14155550171',
      text: 'from the image',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const id: string = sent.body.messageId;
    await waitFor(async () => asha.received.find((m) => m.id === id), 20_000, 'Asha to receive it');
    expect(asha.received.find((m) => m.id === id)?.text).toBe('from the image');

    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect(live.status).toBe(200);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
  }, 180_000);
});
