import { env } from '#shared/config/env';
import { authTable } from '#shared/store/tables';
import type { Frame } from '../../simulator/network.ts';
import { FencedOutError, leaseCheck } from '../leases.ts';
import type { DriverEvents, DriverLink, LinkEnd, LinkRequest, NetworkDriver } from './driver.ts';
import { readSseData } from './sse-reader.ts';

interface SimCreds {
  token: string;
  mobile: string;
}

const credsKey = (sessionId: string) => ({ pk: `AUTH#${sessionId}`, sk: 'creds' });

/**
 * Speaks the simulated network's device protocol (an SSE stream of frames plus POSTs), with auth
 * state in the same DynamoDB table the Baileys driver uses, so restarts need no new QR.
 */
export function simulatorDriver(): NetworkDriver {
  const base = () => env().SIM_NETWORK_URL ?? `http://127.0.0.1:${env().PORT}`;

  return {
    name: 'simulator',
    async clearAuth(sessionId) {
      await authTable.delete(credsKey(sessionId));
    },
    async connect(request: LinkRequest, events: DriverEvents): Promise<DriverLink> {
      const { sessionId } = request;
      let creds = await authTable.get<SimCreds>(credsKey(sessionId), true);
      const abort = new AbortController();
      const url = new URL(`/_sim/device/${encodeURIComponent(sessionId)}/link`, base());
      url.searchParams.set('method', request.method);
      if (request.phoneNumber) url.searchParams.set('phoneNumber', request.phoneNumber);

      const post = async (path: string, body: Record<string, unknown>) => {
        if (!creds) throw new Error('not linked');
        const res = await fetch(new URL(`/_sim/device/${encodeURIComponent(sessionId)}/${path}`, base()), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, token: creds.token }),
          signal: AbortSignal.timeout(15_000),
        });
        if (!res.ok) throw new Error(`network refused ${path}: ${res.status}`);
        return res.json() as Promise<Record<string, unknown>>;
      };

      let closed = false;
      const end = (e: LinkEnd) => {
        if (closed) return;
        closed = true;
        abort.abort();
        events.onClose(e);
      };

      let res: Response;
      try {
        res = await fetch(url, {
          headers: creds ? { 'x-sim-token': creds.token } : {},
          signal: abort.signal,
        });
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      } catch (err) {
        queueMicrotask(() =>
          end({ kind: 'transient', reason: `network unreachable: ${(err as Error).message}` }),
        );
        return linkApi();
      }

      (async () => {
        try {
          for await (const data of readSseData(res.body!)) {
            events.onActivity();
            const frame = JSON.parse(data) as Frame;
            await onFrame(frame);
          }
          end({ kind: 'transient', reason: 'stream ended' });
        } catch (err) {
          end({ kind: 'transient', reason: `connection lost: ${(err as Error).message}` });
        }
      })();

      async function onFrame(f: Frame) {
        switch (f.type) {
          case 'qr':
            return events.onQr(f.qr);
          case 'pairing-code':
            return events.onPairingCode(f.code);
          case 'linked': {
            creds = { token: f.token, mobile: f.mobile };
            const put = authTable.putOp({ ...credsKey(sessionId), ...creds });
            const lease = request.lease;
            // Fenced like every auth write: a host that lost the shard must not store credentials.
            if (!(await authTable.transact(lease ? [put, leaseCheck(lease)] : [put]))) {
              end({
                kind: 'fatal',
                reason: lease ? new FencedOutError(lease).message : 'credentials not stored',
              });
            }
            return;
          }
          case 'open':
            return events.onOpen({ mobile: f.mobile });
          case 'close':
            if (f.reason === 'logged_out') await authTable.delete(credsKey(sessionId));
            return end(f.reason === 'restart' ? { kind: 'restart' } : { kind: f.reason, reason: f.detail });
          case 'message':
            return onMessage(f);
          case 'receipt':
            return events.onReceipt(f.id, f.status);
          case 'lid-mapping':
            return events.onLidMapping(f.lid, f.phone);
          case 'contacts':
            return events.onContacts(f.contacts);
          case 'group':
            return events.onGroup({
              groupId: `${f.groupId}@g.us`,
              subject: f.subject,
              participants: f.participants,
            });
        }
      }

      async function onMessage(f: Extract<Frame, { type: 'message' }>) {
        let media: { bytes: Uint8Array; mimetype: string } | undefined;
        if (f.mediaUrl) {
          const r = await fetch(f.mediaUrl, { signal: AbortSignal.timeout(15_000) });
          if (r.ok) {
            media = {
              bytes: new Uint8Array(await r.arrayBuffer()),
              mimetype: f.mimetype ?? r.headers.get('content-type') ?? 'application/octet-stream',
            };
          }
        }
        const kind = (['text', 'image', 'audio', 'voice', 'video', 'document', 'sticker'] as const).find(
          (k) => k === f.kind,
        );
        events.onInbound(
          {
            id: f.id,
            chatId: f.groupId ? `${f.groupId}@g.us` : f.from || `${f.lid}@lid`,
            senderPhone: f.from || null,
            senderLid: f.lid,
            senderName: f.name,
            groupId: f.groupId ? `${f.groupId}@g.us` : undefined,
            kind: kind ?? 'unknown',
            text: f.kind === 'text' ? f.text : undefined,
            caption: f.kind !== 'text' ? f.text : undefined,
            fileName: f.fileName,
            mimetype: media?.mimetype ?? f.mimetype,
            timestampMs: f.timestampMs,
          },
          media,
        );
      }

      function linkApi(): DriverLink {
        return {
          async send(messageId, to, content, media) {
            await post('send', {
              id: messageId,
              to,
              type: content.kind,
              text: content.text,
              caption: content.caption,
              fileName: content.fileName,
              mimetype: media?.mimetype ?? content.mimetype,
              durationMs: content.durationSeconds !== undefined ? content.durationSeconds * 1000 : undefined,
              quotedId: content.quotedId,
              mediaBase64: media ? Buffer.from(media.bytes).toString('base64') : undefined,
            });
          },
          async presence(u) {
            await post('presence', { to: u.to, type: u.type });
          },
          async react(to, messageId, emoji) {
            await post('send', { id: `R${messageId}${Date.now()}`, to, type: 'reaction', text: emoji });
          },
          async pin(chatId, pin) {
            await post('send', { id: `P${chatId}${Date.now()}`, to: chatId, type: pin ? 'pin' : 'unpin' });
          },
          async postStatus(story) {
            await post('send', {
              id: `S${Date.now()}`,
              to: 'status@broadcast',
              type: `status-${story.type}`,
              text: story.media ? undefined : story.content,
              caption: story.backgroundColor,
              mimetype: story.media?.mimetype,
              mediaBase64: story.media ? Buffer.from(story.media.bytes).toString('base64') : undefined,
            });
          },
          async groupAction(a) {
            const r = await post('group', { ...a });
            return { groupId: r.groupId, action: a.action };
          },
          async probe() {
            await post('probe', {});
          },
          async logout() {
            if (creds) await post('logout', {}).catch(() => undefined);
            await authTable.delete(credsKey(sessionId));
            closed = true;
            abort.abort();
          },
          async close() {
            closed = true;
            abort.abort();
          },
        };
      }
      return linkApi();
    },
  };
}
