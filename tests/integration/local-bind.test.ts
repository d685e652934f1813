import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

/**
 * Local mode's servers listen on loopback only (docs/security.md): the HTTP app, DynamoDB Local,
 * the S3/SQS emulator and the local Secrets Manager. Read from the kernel's own table of listening
 * sockets, so a server bound to every interface is seen even on a machine with no other address.
 */

/** `port → local addresses` of every listening TCP socket (IPv4 and IPv6). */
function listening(): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local) continue; // 0A: LISTEN
      const [hex, portHex] = local.split(':') as [string, string];
      const port = Number.parseInt(portHex, 16);
      out.set(port, [...(out.get(port) ?? []), address(hex)]);
    }
  }
  return out;
}

/** The kernel's hex address as text: IPv4 in host byte order, IPv6 as four such words. */
function address(hex: string): string {
  const word = (w: string) =>
    (w.match(/../g) ?? [])
      .reverse()
      .map((b) => Number.parseInt(b, 16))
      .join('.');
  if (hex.length === 8) return word(hex);
  const words = hex.match(/.{8}/g) ?? [];
  if (words.slice(0, 2).every((w) => w === '00000000') && words[2] === 'FFFF0000')
    return `::ffff:${word(words[3] ?? '')}`;
  return words.every((w) => w === '00000000')
    ? '::'
    : hex === '00000000000000000000000001000000'
      ? '::1'
      : hex;
}

describe.runIf(process.platform === 'linux')('local mode binds loopback only', () => {
  it('every server the service started listens on 127.0.0.1 and nowhere else', () => {
    const env = inject('serviceEnv');
    const urls = [
      inject('baseUrl'),
      env.AWS_ENDPOINT_URL_DYNAMODB,
      env.AWS_ENDPOINT_URL_S3,
      env.AWS_ENDPOINT_URL_SQS,
      env.AWS_ENDPOINT_URL_SECRETS_MANAGER,
    ];
    const table = listening();
    for (const url of urls) {
      expect(url, 'an endpoint of the running service').toBeTruthy();
      const port = Number(new URL(url as string).port);
      const bound = table.get(port);
      expect(bound, `${url} is listening`).toBeDefined();
      for (const a of bound ?? [])
        expect(['127.0.0.1', '::ffff:127.0.0.1'], `${url} bound to ${a}`).toContain(a);
    }
  });

  it('reads the kernel table right: a wildcard socket is seen as such', async () => {
    const { createServer } = await import('node:net');
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, r));
    const port = (srv.address() as { port: number }).port;
    try {
      expect(
        listening()
          .get(port)
          ?.some((a) => a === '::' || a === '0.0.0.0'),
      ).toBe(true);
    } finally {
      srv.close();
    }
  });
});
