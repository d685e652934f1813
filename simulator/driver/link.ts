import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { NumberCheck } from '#shared/commands/types';
import { maskUrl } from '#shared/http/mask-url';
import { logger } from '#shared/log/logger';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import { toVCard } from '#shared/messages/vcard';
import { guardedFetch } from '#shared/outbound/guard';
import { STATUS_JID } from '#shared/phone/jid';
import type {
  DriverLink,
  LinkEnd,
  LinkRequest,
  OutboundMedia,
} from '../../connection-host/drivers/driver.ts';
import { DEVICE_TOKEN_HEADER, type DeviceGroupReply, type DeviceRequests, type Frame } from '../protocol.ts';
import { readSseData } from './sse-reader.ts';

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * One device connection to the simulated network, the way a phone's linked device holds one: a
 * stream of frames in, HTTP requests out. It ends once, whoever ends it first.
 */
export class DeviceConnection {
  private readonly abort = new AbortController();
  private closed = false;

  constructor(
    private readonly base: string,
    private readonly sessionId: string,
    /** The login token once linked; requests need it. */
    public token: string | undefined,
    private readonly onEnd: (end: LinkEnd) => void,
  ) {}

  /**
   * Opens the link: answers its frames once the network has accepted it, or nothing when the network
   * cannot be reached (the link then ends right after the caller has it).
   */
  async open(
    request: Pick<LinkRequest, 'method' | 'phoneNumber'>,
  ): Promise<AsyncIterable<Frame> | undefined> {
    const url = this.url('link');
    url.searchParams.set('method', request.method);
    if (request.phoneNumber) url.searchParams.set('phoneNumber', request.phoneNumber);
    try {
      const res = await openStream(
        url,
        this.token ? { [DEVICE_TOKEN_HEADER]: this.token } : {},
        this.abort.signal,
      );
      if (res.statusCode !== 200) {
        res.resume();
        throw new Error(`HTTP ${res.statusCode}`);
      }
      return framesOf(res);
    } catch (err) {
      queueMicrotask(() =>
        this.end({ kind: 'transient', reason: `network unreachable: ${(err as Error).message}` }),
      );
      return undefined;
    }
  }

  async post<R extends keyof DeviceRequests>(
    request: R,
    body: Omit<DeviceRequests[R], 'token'>,
  ): Promise<Record<string, unknown>> {
    if (!this.token) throw new Error('not linked');
    const res = await fetch(this.url(request), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, token: this.token }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`network refused ${request}: ${res.status}`);
    return res.json() as Promise<Record<string, unknown>>;
  }

  /** Ends the link and tells the runtime why. */
  end(end: LinkEnd): void {
    if (this.closed) return;
    this.close();
    this.onEnd(end);
  }

  /** Ends the link without a report: the runtime asked for it. */
  close(): void {
    this.closed = true;
    this.abort.abort();
  }

  private url(path: string): URL {
    return new URL(`/_sim/device/${encodeURIComponent(this.sessionId)}/${path}`, this.base);
  }
}

/**
 * The frame stream as a Node response (node:http, not `fetch`): every inbound message of the
 * simulated network passes here, and a web stream per frame costs the benchmarks' CPU.
 */
function openStream(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const get = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    // Errors after the answer reach the reader of the frames; this listener only keeps them from
    // being unhandled 'error' events. Closing the link destroys the request without an error (the
    // reader then sees a premature close).
    const req = get(url, { headers }, (res) => resolve(res.on('error', () => {})));
    req.on('error', reject);
    if (signal.aborted) req.destroy(new Error('aborted'));
    else signal.addEventListener('abort', () => req.destroy(), { once: true });
  });
}

async function* framesOf(body: AsyncIterable<Uint8Array>): AsyncGenerator<Frame> {
  for await (const data of readSseData(body)) yield JSON.parse(data) as Frame;
}

/**
 * Media a message frame points at, fetched as every URL from outside is (the private-address guard,
 * the media size cap, a timeout); undefined when it cannot be had: the message still arrives.
 */
export async function fetchFrameMedia(url: string, mimetype?: string): Promise<OutboundMedia | undefined> {
  try {
    const r = await guardedFetch(url, {}, { maxBytes: MEDIA_MAX_BYTES, timeoutMs: REQUEST_TIMEOUT_MS });
    if (!r.ok) return undefined;
    return {
      bytes: new Uint8Array(await r.arrayBuffer()),
      mimetype: mimetype ?? r.headers.get('content-type') ?? 'application/octet-stream',
    };
  } catch (err) {
    logger.warn({ err, url: maskUrl(url) }, 'inbound media not fetched');
    return undefined;
  }
}

const base64 = (media?: OutboundMedia) => (media ? Buffer.from(media.bytes).toString('base64') : undefined);

/** What the host does on a link, as device requests. `forgetCreds` removes the stored login. */
export function deviceLink(conn: DeviceConnection, forgetCreds: () => Promise<void>): DriverLink {
  return {
    async send(messageId, to, content, media) {
      await conn.post('send', {
        id: messageId,
        to,
        type: content.kind,
        text: content.text,
        caption: content.caption,
        fileName: content.fileName,
        mimetype: media?.mimetype ?? content.mimetype,
        durationMs: content.durationSeconds !== undefined ? content.durationSeconds * 1000 : undefined,
        quotedId: content.quotedId,
        mediaBase64: base64(media),
        location: content.location,
        contacts: content.contacts?.map((c) => ({ name: c.name, vcard: toVCard(c) })),
        poll: content.poll && { ...content.poll, multiple: content.poll.multiple ?? false },
        list: content.list,
      });
    },
    async presence(u) {
      await conn.post('presence', { to: u.to, type: u.type });
    },
    async read(chatId, messages) {
      await conn.post('read', {
        to: chatId,
        ids: messages.map((m) => m.id),
        played: messages.filter((m) => m.voice).map((m) => m.id),
      });
    },
    async edit(chatId, messageId, text) {
      await conn.post('send', {
        id: `E${messageId}${Date.now()}`,
        to: chatId,
        type: 'edit',
        quotedId: messageId,
        text,
      });
    },
    async revoke(chatId, messageId) {
      await conn.post('send', {
        id: `X${messageId}${Date.now()}`,
        to: chatId,
        type: 'revoke',
        quotedId: messageId,
      });
    },
    async checkNumbers(numbers) {
      const r = (await conn.post('check', { numbers })) as { numbers?: NumberCheck[] };
      if (!Array.isArray(r.numbers)) throw new Error('the network did not answer the check');
      return r.numbers;
    },
    async react(to, messageId, emoji) {
      await conn.post('send', { id: `R${messageId}${Date.now()}`, to, type: 'reaction', text: emoji });
    },
    async pin(chatId, pin) {
      await conn.post('send', { id: `P${chatId}${Date.now()}`, to: chatId, type: pin ? 'pin' : 'unpin' });
    },
    async postStatus(story) {
      await conn.post('send', {
        id: `S${Date.now()}`,
        to: STATUS_JID,
        type: `status-${story.type}`,
        text: story.media ? undefined : story.content,
        caption: story.backgroundColor,
        mimetype: story.media?.mimetype,
        mediaBase64: base64(story.media),
      });
    },
    async groupAction(a) {
      const r = (await conn.post('group', { ...a })) as Partial<DeviceGroupReply>;
      return { groupId: r.groupId, action: a.action };
    },
    async rejectCall(callId) {
      await conn.post('reject-call', { callId });
    },
    async probe() {
      await conn.post('probe', {});
    },
    async logout() {
      if (conn.token) await conn.post('logout', {}).catch(() => undefined);
      await forgetCreds();
      conn.close();
    },
    async close() {
      conn.close();
    },
  };
}
