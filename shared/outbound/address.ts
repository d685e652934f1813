import { isIPv4, isIPv6 } from 'node:net';

/**
 * Classifies an IP address for the outbound-request guard: the reason it must not be reached
 * (loopback, private, link-local …), or `undefined` for a public unicast address.
 * IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address.
 */
export function blockedReason(ip: string): string | undefined {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return ipv4Reason(bare.split('.').map(Number));
  if (isIPv6(bare)) return ipv6Reason(parseIpv6(bare));
  return 'not an IP address';
}

function ipv4Reason(b: number[]): string | undefined {
  const [a = 0, c = 0] = b;
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10) return 'private';
  if (a === 172 && c >= 16 && c <= 31) return 'private';
  if (a === 192 && c === 168) return 'private';
  if (a === 100 && c >= 64 && c <= 127) return 'carrier-grade NAT';
  if (a === 169 && c === 254) return 'link-local';
  if (a === 192 && c === 0 && b[2] === 0) return 'reserved';
  if (a === 198 && (c === 18 || c === 19)) return 'reserved';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return undefined;
}

function ipv6Reason(b: number[]): string | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 15) && b[15] === 0) return 'unspecified';
  if (zeros(0, 15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated)
  if (zeros(0, 10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) {
    return ipv4Reason(b.slice(12, 16));
  }
  // 64:ff9b::/96 (NAT64) embeds the IPv4 target in the last 32 bits.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12))
    return ipv4Reason(b.slice(12, 16));
  // 2002::/16 (6to4) embeds it in bits 16–47.
  if (b[0] === 0x20 && b[1] === 0x02) return ipv4Reason(b.slice(2, 6));
  const first = b[0] ?? 0;
  const second = b[1] ?? 0;
  if ((first & 0xfe) === 0xfc) return 'unique local';
  if (first === 0xfe && (second & 0xc0) === 0x80) return 'link-local';
  if (first === 0xfe && (second & 0xc0) === 0xc0) return 'site-local';
  if (first === 0xff) return 'multicast';
  // 2001::/32 (Teredo) hides an obfuscated IPv4; 2001:db8::/32 is documentation; 100::/64 discard.
  if (first === 0x20 && second === 0x01 && b[2] === 0 && b[3] === 0) return 'reserved';
  if (first === 0x20 && second === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved';
  if (first === 0x01 && second === 0 && zeros(2, 8)) return 'reserved';
  return undefined;
}

/** 16 bytes of a valid IPv6 address (validated by `isIPv6` first). */
function parseIpv6(ip: string): number[] {
  let text = ip.toLowerCase();
  const tail: number[] = [];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    tail.push(...dotted[1].split('.').map(Number));
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  const words = [...left, ...fill, ...right].map((w) => Number.parseInt(w || '0', 16));
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}
