import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import { ValidationError } from '../http/errors.ts';
import { assertAllowedAddress } from '../outbound/guard.ts';

/** Proxy schemes a session may use: an HTTP CONNECT proxy (plain or over TLS) or SOCKS5. */
export const PROXY_PROTOCOLS = ['http:', 'https:', 'socks5:', 'socks5h:'] as const;

/**
 * Why a proxy URL cannot be used, or undefined when it can: one of the schemes above, a host, an
 * optional port and user info; nothing else (a path, query or fragment would be ignored silently).
 */
export function proxyUrlProblem(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (!(PROXY_PROTOCOLS as readonly string[]).includes(u.protocol))
    return `scheme ${u.protocol} is not a proxy scheme; use http, https, socks5 or socks5h`;
  if (!u.hostname) return 'names no host';
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash)
    return 'must be scheme://[user:password@]host[:port] with no path, query or fragment';
  return undefined;
}

/** A session's proxy as a caller gives it (http, https or socks5; credentials in the user info). */
export const ProxyUrlInput = z
  .string()
  .trim()
  .max(2048)
  .superRefine((raw, ctx) => {
    const problem = proxyUrlProblem(raw);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Early feedback when a proxy is set: a host that is, or now resolves to, a private, loopback,
 * link-local or metadata address is refused (400 naming `proxyUrl`) unless `allowPrivate`. Not the
 * defence on its own (DNS can change): the host checks the address it dials, every time.
 */
export async function assertProxyAddressAllowed(raw: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return; // not resolvable now: the link's own lookup reports it
  }
  try {
    for (const a of addresses) assertAllowedAddress(a, host, false);
  } catch (err) {
    throw new ValidationError(`proxyUrl: ${(err as Error).message}`, 'proxyUrl');
  }
}
