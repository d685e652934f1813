import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { env } from '../config/env.ts';
import { ServiceError } from '../http/errors.ts';
import { blockedReason } from './address.ts';

/**
 * Every outbound request made on a user's behalf (webhook deliveries, media URLs, contact exports,
 * knowledge pages, remote brain and prompt URLs) goes through `guardedFetch`; proxies and SQL export
 * targets check their resolved addresses with `assertAllowedAddress`. It lives in its own folder
 * because webhooks are only one of its callers. The address is checked when the socket connects, on the
 * address actually dialled, so a name that resolves to a public address at validation time and to
 * a private one later (DNS rebinding) is still refused. Redirects are never followed.
 */

export class TargetNotAllowedError extends ServiceError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

export class TargetTimeoutError extends ServiceError {
  constructor(url: string, ms: number) {
    super('UPSTREAM_UNAVAILABLE', `${url} did not answer within ${ms} ms`);
  }
}

/**
 * The target could not be reached at all (refused, reset, no such name): an upstream that is down,
 * answered as 503 wherever it reaches a caller. `cause` keeps the socket's error (its errno code).
 */
export class TargetUnreachableError extends ServiceError {
  constructor(
    url: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    super('UPSTREAM_UNAVAILABLE', `${url} could not be reached (${cause.code ?? cause.message})`);
  }
}

export class TargetTooLargeError extends ServiceError {
  constructor(url: string, maxBytes: number) {
    super('PAYLOAD_TOO_LARGE', `${url} answered more than ${maxBytes} bytes`);
  }
}

export interface GuardOptions {
  /** Largest response body accepted; reading more fails with TargetTooLargeError. */
  maxBytes?: number;
  /** Whole exchange: connect, headers and body. */
  timeoutMs?: number;
  /** Defaults to WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowPrivate?: boolean;
}

export interface GuardedInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** Throws TargetNotAllowedError when the address may not be reached. */
export function assertAllowedAddress(address: string, host: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const reason = blockedReason(address);
  if (reason)
    throw new TargetNotAllowedError(`${host} resolves to a ${reason} address (${address}); refused`);
}

/** A `lookup` for `net.connect` that resolves every address and refuses the request if any is not public. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      try {
        if (!addresses.length) throw new TargetNotAllowedError(`${hostname} has no address`);
        for (const a of addresses) assertAllowedAddress(a.address, hostname, allowPrivate);
      } catch (guardErr) {
        return callback(guardErr as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** Parses and checks the URL itself: http(s) only, no credentials, and IP literals judged here. */
export function checkTargetUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetNotAllowedError('not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetNotAllowedError(`scheme ${url.protocol} is not allowed; use http or https`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is dialled without a lookup, so it is judged here.
  if (isIP(host)) assertAllowedAddress(host, host, allowPrivate);
  return url;
}

/** An idle pooled connection is closed after this (servers commonly close theirs after 5 s). */
const IDLE_SOCKET_MS = 4_000;
const agents = new Map<string, HttpAgent>();

/**
 * Connections are pooled per protocol and per address policy: every socket in a pool was checked
 * by the guarded lookup when it connected, and a pool only serves requests of the same policy, so
 * reusing a socket never skips the check (the address it talks to is the one checked). Reuse saves
 * a TCP and TLS handshake per webhook to a busy receiver.
 */
function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, lookup: guardedLookup(allowPrivate) };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * The guarded request itself: once the answer's headers arrive, `take` turns it into the result,
 * in the same turn (before any of the body flows). The timeout keeps running over the body and the
 * size limit is enforced while it is read; either ends the body's stream with its error.
 */
function guardedAnswer<T>(
  raw: string,
  init: GuardedInit,
  opts: GuardOptions,
  take: (res: IncomingMessage, status: number) => T,
): Promise<T> {
  const allowPrivate = opts.allowPrivate ?? env().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const url = checkTargetUrl(raw, allowPrivate);
  const display = `${url.protocol}//${url.host}`;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;

  if (init.signal?.aborted)
    return Promise.reject(init.signal.reason instanceof Error ? init.signal.reason : new Error('aborted'));

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
      req.destroy(err);
      if (!settled) {
        settled = true;
        reject(err);
      }
    };
    const timer = setTimeout(() => fail(new TargetTimeoutError(display, timeoutMs)), timeoutMs);
    const onAbort = () =>
      fail(init.signal?.reason instanceof Error ? init.signal.reason : new Error('aborted'));
    init.signal?.addEventListener('abort', onAbort, { once: true });

    const req = request(url, {
      method: init.method ?? 'GET',
      headers: { ...init.headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) },
      agent: agentFor(url.protocol, allowPrivate),
    });
    // Our own errors (the guard, the timeout, an abort) pass as they are; the socket's become 503s.
    req.on('error', (err) =>
      fail(
        settled || err instanceof ServiceError || init.signal?.aborted
          ? err
          : new TargetUnreachableError(display, err),
      ),
    );
    req.on('response', (res: IncomingMessage) => {
      const declared = Number(res.headers['content-length'] ?? '0');
      if (declared > maxBytes) return fail(new TargetTooLargeError(display, maxBytes));
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) res.destroy(new TargetTooLargeError(display, maxBytes));
      });
      const done = () => {
        clearTimeout(timer);
        init.signal?.removeEventListener('abort', onAbort);
      };
      res.once('end', done);
      res.once('close', done);
      // After the headers the timer keeps running over the body; it ends the stream with the error.
      res.once('error', () => done());
      settled = true;
      resolve(take(res, res.statusCode ?? 502));
    });
    req.end(body);
  });
}

/**
 * `fetch` with the private-address guard, a timeout over the whole exchange and a body size limit.
 * The answer is a standard `Response`; 3xx answers are returned as they are (not followed).
 */
export async function guardedFetch(
  raw: string,
  init: GuardedInit = {},
  opts: GuardOptions = {},
): Promise<Response> {
  return guardedAnswer(raw, init, opts, (res, status) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    if (NULL_BODY_STATUS.has(status) || status < 200 || status > 599) {
      res.resume();
      return new Response(null, { status: status < 200 || status > 599 ? 502 : status, headers });
    }
    return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, headers });
  });
}

/**
 * The same guarded request for a caller that needs only the status and headers (a webhook POST):
 * the body is read to the end (at most `maxBytes`) and dropped, so the connection can serve the
 * next request, and an error while reading it is ignored. Cheaper than `guardedFetch`: no web
 * streams, no `Response`.
 */
export async function guardedStatus(
  raw: string,
  init: GuardedInit = {},
  opts: GuardOptions = {},
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { ended, status, headers } = await guardedAnswer(raw, init, opts, (res, status) => ({
    status,
    headers: res.headers,
    ended: new Promise<void>((ended) => {
      res.once('end', ended);
      res.once('close', ended);
      res.once('error', () => ended());
      res.resume();
    }),
  }));
  await ended;
  return { status, headers };
}

/**
 * Early feedback when a URL is configured: refuses a URL whose host is, or now resolves to, a
 * non-public address. Not a defence on its own (DNS can change); the connect-time check is.
 */
export async function assertPublicTarget(
  raw: string,
  allowPrivate = env().WEBHOOK_ALLOW_PRIVATE_TARGETS,
): Promise<void> {
  const url = checkTargetUrl(raw, allowPrivate);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || isIP(host)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await dnsLookupAll(host);
  } catch {
    return; // not resolvable yet: deliveries will retry and report it
  }
  for (const a of addresses) assertAllowedAddress(a.address, host, false);
}

function dnsLookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );
}
