import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverLink } from '../../connection-host/drivers/driver.ts';
import { ProxyRefusedError } from '../../connection-host/proxy.ts';
import {
  type DriverNetwork,
  linkThenLogin,
  recorder,
  startDriverNetwork,
} from '../support/baileys-driver-rig.ts';
import type { FakeNetwork, FakeUser } from '../support/fake-network/index.ts';

/**
 * A session's proxy: the Baileys socket reaches the fake network only through a CONNECT proxy
 * written here (on loopback, with a password), which records every tunnel it opened and the bytes
 * that passed. A wrong password and a proxy the address guard refuses end the link with a reason.
 */

interface Tunnel {
  target: string;
  auth: string | undefined;
  bytesUp: number;
  bytesDown: number;
}

/** A minimal HTTP CONNECT proxy asking for `user:pass`; answers 407 to anything else. */
async function startConnectProxy(user: string, pass: string) {
  const tunnels: Tunnel[] = [];
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    const auth = req.headers['proxy-authorization'];
    const expected = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    if (auth !== expected) {
      refused.push(req.url ?? '');
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const tunnel: Tunnel = { target: req.url ?? '', auth, bytesUp: head.length, bytesDown: 0 };
    tunnels.push(tunnel);
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.on('data', (d: Buffer) => {
        tunnel.bytesUp += d.length;
      });
      upstream.on('data', (d: Buffer) => {
        tunnel.bytesDown += d.length;
      });
      client.pipe(upstream).pipe(client);
    });
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    tunnels,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let rig: DriverNetwork;
let net: FakeNetwork;
let me: FakeUser;
let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 15_000 });
const links: DriverLink[] = [];

const driver = (allowPrivateProxy: boolean) => rig.driver({ allowPrivateProxy });
const request = (proxyUrl: string) => ({
  tenantId: 't-proxy',
  sessionId: `s-${randomBytes(4).toString('hex')}`,
  method: 'qr' as const,
  proxyUrl,
});

beforeAll(async () => {
  rig = await startDriverNetwork('bpx');
  net = rig.net;
  me = net.addUser({ phone: '919876543277', name: 'Shop' });
  proxy = await startConnectProxy('shop', 'p4ss w0rd');
});

afterAll(async () => {
  for (const l of links) await l.close().catch(() => undefined);
  await rig?.close();
  await proxy?.close();
});

const netPort = () => new URL(net.url).port;

describe('a session behind a proxy', () => {
  it('links and logs in with every byte through the CONNECT proxy, credentials included', async () => {
    const proxyUrl = `http://shop:${encodeURIComponent('p4ss w0rd')}@127.0.0.1:${proxy.port}`;
    const req = request(proxyUrl);
    const { link, opened, device } = await linkThenLogin(driver(true), req, me);
    links.push(link);
    expect(opened.opens).toEqual(['919876543277']);
    await poll(() => device.online).toBe(true);
    // Both links went through the proxy, to the network's address, and traffic flowed both ways.
    expect(proxy.tunnels.map((t) => t.target)).toEqual([`127.0.0.1:${netPort()}`, `127.0.0.1:${netPort()}`]);
    for (const t of proxy.tunnels) {
      expect(t.bytesUp).toBeGreaterThan(100);
      expect(t.bytesDown).toBeGreaterThan(100);
    }
    expect(proxy.refused).toEqual([]);
  });

  it('a wrong proxy password ends the link with a reason naming the proxy, password masked', async () => {
    const tunnels = proxy.tunnels.length;
    const r = recorder();
    links.push(await driver(true).connect(request(`http://shop:wrong@127.0.0.1:${proxy.port}`), r.events));
    await poll(() => r.closes.length).toBe(1);
    expect(r.closes[0]).toMatchObject({ kind: 'refused', code: 407 });
    const reason = r.closes[0]?.kind === 'restart' ? '' : (r.closes[0]?.reason ?? '');
    expect(reason).toContain(`through proxy http://shop:********@127.0.0.1:${proxy.port}`);
    expect(reason).toContain('the proxy answered 407');
    expect(reason).not.toContain('wrong');
    expect(proxy.refused).toHaveLength(1);
    expect(proxy.tunnels).toHaveLength(tunnels);
  });

  it('a proxy on a private address is refused unless allowed: at once for an IP, at lookup for a name', async () => {
    const seen = proxy.refused.length + proxy.tunnels.length;
    await expect(
      driver(false).connect(request(`http://shop:x@127.0.0.1:${proxy.port}`), recorder().events),
    ).rejects.toBeInstanceOf(ProxyRefusedError);
    const r = recorder();
    links.push(await driver(false).connect(request(`http://shop:x@localhost:${proxy.port}`), r.events));
    await poll(() => r.closes.length).toBe(1);
    expect(r.closes[0]).toMatchObject({ kind: 'fatal' });
    expect(r.closes[0]?.kind === 'fatal' && r.closes[0].reason).toMatch(
      /^proxy http:\/\/shop:\*{8}@localhost:\d+\/?: localhost resolves to a .*address/,
    );
    expect(proxy.refused.length + proxy.tunnels.length).toBe(seen); // nothing reached the proxy
  });
});
