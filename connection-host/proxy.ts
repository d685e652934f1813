import { EventEmitter } from 'node:events';
import type { Agent as HttpAgent } from 'node:https';
import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { type Dispatcher, Agent as UndiciAgent } from 'undici';
import { maskUrl } from '#shared/http/mask-url';
import { assertAllowedAddress, guardedLookup } from '#shared/outbound/guard';
import { proxyUrlProblem } from '#shared/sessions/proxy-url';

/** A session's proxy refused before any byte went out: the session cannot link as configured. */
export class ProxyRefusedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ProxyRefusedError';
  }
}

/** What a link's traffic goes through: `agent` for the socket and uploads, `dispatcher` for fetch (downloads). */
export interface ProxyRoute {
  agent: HttpAgent;
  dispatcher: Dispatcher;
  /** The proxy as logs and reasons may show it (password masked). */
  shown: string;
  /** Set when the guard refused the address the proxy's name resolved to: the link cannot be made. */
  refusal?: string;
  /** The proxy's answer when it refused a tunnel (407: wrong credentials); the link is ended then. */
  answered?: number;
  /** Called when the proxy refuses a tunnel: the socket would otherwise wait for its timeout. */
  onAnswer?: (status: number) => void;
}

/**
 * The agents that carry a session's traffic through its proxy. The proxy's own address is the
 * operator's choice, but it is dialled through the same guard as every outbound request: a host
 * that is (or resolves to) a private, loopback, link-local or metadata address is refused unless
 * `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS), checked at connect time on the address dialled.
 */
export function proxyRoute(raw: string, allowPrivate: boolean): ProxyRoute {
  const shown = maskUrl(raw);
  const problem = proxyUrlProblem(raw);
  if (problem) throw new ProxyRefusedError(`proxy ${shown}: ${problem}`);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    if (isIP(host)) assertAllowedAddress(host, host, allowPrivate);
  } catch (err) {
    throw new ProxyRefusedError(`proxy ${shown}: ${(err as Error).message}`);
  }
  const guarded = guardedLookup(allowPrivate);
  const route: Partial<ProxyRoute> = { shown };
  const lookup: typeof guarded = (hostname, options, callback) =>
    guarded(hostname, options, (err, ...rest) => {
      if (err?.name === 'TargetNotAllowedError') route.refusal = `proxy ${shown}: ${err.message}`;
      (callback as (...a: unknown[]) => void)(err, ...rest);
    });
  const agent: HttpAgent = url.protocol.startsWith('socks')
    ? new SocksProxyAgent(url, { socketOptions: { lookup } } as ConstructorParameters<
        typeof SocksProxyAgent
      >[1])
    : new HttpsProxyAgent(url, { lookup });
  agent.on('proxyConnect', (answer: { statusCode: number }) => {
    if (answer.statusCode === 200) return;
    route.answered = answer.statusCode;
    route.onAnswer?.(answer.statusCode);
  });
  // fetch (Baileys' media downloads) takes an undici dispatcher: its connections are made by the same
  // proxy agent, so both paths go through the proxy and the guard.
  const dispatcher = new UndiciAgent({
    connect: (opts, callback) => {
      const secureEndpoint = opts.protocol === 'https:';
      const port = Number(opts.port) || (secureEndpoint ? 443 : 80);
      // agent-base reports the proxy's answer to CONNECT on the request; a refusal is an error here.
      const request = new EventEmitter();
      let refused: number | undefined;
      request.once('proxyConnect', (answer: { statusCode: number }) => {
        if (answer.statusCode !== 200) refused = answer.statusCode;
      });
      (agent as unknown as ProxyConnector)
        .connect(request, {
          host: opts.hostname,
          port,
          secureEndpoint,
          servername: opts.servername ?? opts.hostname,
        })
        .then(
          (socket) => {
            if (refused === undefined) return callback(null, socket);
            socket.destroy();
            callback(new Error(`proxy ${shown} answered ${refused} to CONNECT`), null);
          },
          (err: Error) => callback(err, null),
        );
    },
  });
  return Object.assign(route, { agent, dispatcher }) as ProxyRoute;
}

/** agent-base's connect: a socket to `host:port` through the proxy (TLS to it when `secureEndpoint`). */
interface ProxyConnector {
  connect(
    req: unknown,
    opts: { host: string; port: number; secureEndpoint: boolean; servername?: string },
  ): Promise<Socket>;
}
