import { env } from '#shared/config/env';
import { authCredsKey as credsKey } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import type {
  DriverEvents,
  DriverLink,
  LinkRequest,
  NetworkDriver,
} from '../../connection-host/drivers/driver.ts';
import { epochCheck, FencedOutError } from '../../connection-host/session-fence.ts';
import type { Frame } from '../protocol.ts';
import { AckBatcher } from './acks.ts';
import { deliver, type FrameStep, stepOf } from './frames.ts';
import { DeviceConnection, deviceLink, fetchFrameMedia } from './link.ts';

interface SimCreds {
  token: string;
  mobile: string;
}

/**
 * Speaks the simulated network's device protocol (`simulator/protocol.ts`), with auth state in the
 * same DynamoDB table the Baileys driver uses, so restarts need no new QR. `frames.ts` says what
 * each frame means; this file does what that takes (store the login, fetch media, report).
 */
export function simulatorDriver(): NetworkDriver {
  const base = () => env().SIM_NETWORK_URL ?? `http://127.0.0.1:${env().PORT}`;
  const forgetCreds = (sessionId: string) => authTable.delete(credsKey(sessionId));

  return {
    name: 'simulator',
    clearAuth: forgetCreds,
    async connect(request: LinkRequest, events: DriverEvents): Promise<DriverLink> {
      const { sessionId } = request;
      const creds = await authTable.get<SimCreds>(credsKey(sessionId), true);
      const conn = new DeviceConnection(base(), sessionId, creds?.token, (end) => events.onClose(end));
      const acks = new AckBatcher((ids) => conn.post('ack', { ids }));

      const apply = async (s: FrameStep): Promise<void> => {
        switch (s.step) {
          case 'report':
            return deliver(events, s.event);
          case 'store-creds': {
            conn.token = s.creds.token;
            const put = authTable.putOp({ ...credsKey(sessionId), ...s.creds });
            const lease = request.lease;
            // Fenced like every auth write: a host that lost the session must not store credentials.
            if (!(await authTable.transact(lease ? [put, epochCheck(sessionId, lease)] : [put]))) {
              conn.end({
                kind: 'fatal',
                reason: lease ? new FencedOutError(sessionId, lease).message : 'credentials not stored',
              });
            }
            return;
          }
          case 'end':
            if (s.forgetCreds) await forgetCreds(sessionId);
            return conn.end(s.end);
          case 'inbound': {
            const media = s.mediaUrl ? await fetchFrameMedia(s.mediaUrl, s.message.mimetype) : undefined;
            // Acknowledged once the host has it safe, not on receipt: a host killed before then leaves
            // it with the network, which sends it again on the session's next link.
            return events.onInbound(
              media ? { ...s.message, mimetype: media.mimetype } : s.message,
              media,
              () => acks.add(s.message.id),
            );
          }
          case 'history': {
            if (!request.syncHistory) return; // the session did not ask: nothing reported, as with Baileys
            const since = Date.now() - request.syncHistory.days * 86_400_000;
            const wanted = s.messages.filter((m) => m.timestampMs >= since);
            if (wanted.length) events.onHistory(wanted, { syncType: 'INITIAL_BOOTSTRAP', progress: 100 });
            return;
          }
          case 'ignore':
            return;
        }
      };

      const follow = async (frames: AsyncIterable<Frame>) => {
        try {
          for await (const frame of frames) {
            events.onActivity();
            await apply(stepOf(frame));
          }
          conn.end({ kind: 'transient', reason: 'stream ended' });
        } catch (err) {
          conn.end({ kind: 'transient', reason: `connection lost: ${(err as Error).message}` });
        }
      };

      const frames = await conn.open(request);
      if (frames) void follow(frames);
      return deviceLink(conn, () => forgetCreds(sessionId));
    },
  };
}
