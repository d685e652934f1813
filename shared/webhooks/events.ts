import type { CommandRecord } from '../commands/results.ts';
import type { MessageStatus } from '../events/types.ts';
import type { MessageAnalysis } from '../messages/analysis.ts';
import { DECRYPT_FAILED, type InboundMessage, isDecryptFailed } from '../messages/content.ts';
import type { StoredMessage } from '../messages/message.ts';
import { mediaLink } from '../presentation/media-link.ts';
import { resolveSender } from '../presentation/sender.ts';
import { sessionStatusOf } from '../presentation/session-status.ts';
import { getSession } from '../sessions/repository.ts';
import type { Session } from '../sessions/session.ts';
import { sessionStatusSentKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { CLOUD_EVENTS, cloudInboundPayload, cloudStatusPayload } from './cloud/events.ts';
import { enqueueBuilt, enqueueReplayed, prepareFirstAttempts } from './enqueue.ts';
import { commandResultPayload, inboundWebhookPayload, messageStatusPayload } from './payload.ts';

/**
 * How long the events consumer reuses a session record it read for webhook payloads (`mobid`,
 * `recipient`). A session.status this process applies forgets it at once; one applied elsewhere
 * shows within this bound.
 */
export const SESSION_MEMORY_MS = 10_000;
const sessions = new Map<string, { until: number; value: Promise<Session | undefined> }>();

export function forgetSession(tenantId: string, sessionId: string): void {
  sessions.delete(`${tenantId}\0${sessionId}`);
}

/** A native event's payload, built with the session part every one starts with (its id and mobid). */
async function withSession<T>(
  tenantId: string,
  sessionId: string,
  build: (session: { sessionId: string; mobid?: string }) => T,
): Promise<T> {
  const session = await sessionOf(tenantId, sessionId);
  return build({ sessionId, mobid: session?.mobid });
}

function sessionOf(tenantId: string, sessionId: string): Promise<Session | undefined> {
  const key = `${tenantId}\0${sessionId}`;
  const now = Date.now();
  const hit = sessions.get(key);
  if (hit && hit.until > now) return hit.value;
  if (sessions.size >= 10_000) sessions.clear();
  const value = getSession(tenantId, sessionId);
  sessions.set(key, { until: now + SESSION_MEMORY_MS, value });
  value.catch(() => {
    if (sessions.get(key)?.value === value) sessions.delete(key);
  });
  return value;
}

/**
 * Host events → webhook deliveries. Delivery ids derive from the event, so applying the same host
 * event twice queues one delivery.
 */

/**
 * What a message's `message.inbound` deliveries are keyed by (one delivery per key): its id, and for
 * an undecryptable message's placeholder its own key, so the real message that replaces it is
 * delivered too.
 */
const inboundDedupKey = (sessionId: string, m: InboundMessage) =>
  isDecryptFailed(m) ? `${sessionId}:${m.id}:${DECRYPT_FAILED}` : `${sessionId}:${m.id}`;

/**
 * `message.inbound`; a media message carries what its analysis found (docs/media.md). Each function
 * here also queues the Cloud-format delivery of the same event when the tenant has that webhook
 * (docs/webhooks-cloud.md); the native delivery's id is answered.
 */
export async function inboundMessageWebhook(
  tenantId: string,
  sessionId: string,
  m: InboundMessage,
  analysis?: MessageAnalysis,
) {
  const dedupKey = inboundDedupKey(sessionId, m);
  const [id] = await Promise.all([
    enqueueBuilt(
      tenantId,
      sessionId,
      'message.inbound',
      () => buildInbound(tenantId, sessionId, m, analysis),
      { dedupKey },
    ),
    enqueueBuilt(tenantId, sessionId, CLOUD_EVENTS.inbound, () => buildCloudInbound(tenantId, sessionId, m), {
      dedupKey,
    }),
  ]);
  return id;
}

/** `message.inbound` for messages of one session stored before, now applied again (`enqueueReplayed`). */
export async function replayedInboundWebhooks(tenantId: string, sessionId: string, ms: InboundMessage[]) {
  await Promise.all([
    enqueueReplayed(tenantId, sessionId, 'message.inbound', inboundEntries(tenantId, sessionId, ms)),
    enqueueReplayed(tenantId, sessionId, CLOUD_EVENTS.inbound, cloudEntries(tenantId, sessionId, ms)),
  ]);
}

/**
 * The `message.inbound` first attempts of messages just stored, native and Cloud format, for the
 * events consumer to make itself (`prepareFirstAttempts`).
 */
export async function inboundFirstAttempts(tenantId: string, sessionId: string, ms: InboundMessage[]) {
  const [native, cloud] = await Promise.all([
    prepareFirstAttempts(tenantId, sessionId, 'message.inbound', inboundEntries(tenantId, sessionId, ms)),
    prepareFirstAttempts(tenantId, sessionId, CLOUD_EVENTS.inbound, cloudEntries(tenantId, sessionId, ms)),
  ]);
  return [...native, ...cloud];
}

/** One delivery entry per message: its payload built when sent, its id from the message id. */
const inboundEntries = (tenantId: string, sessionId: string, ms: InboundMessage[]) =>
  ms.map((m) => ({
    build: () => buildInbound(tenantId, sessionId, m),
    dedupKey: inboundDedupKey(sessionId, m),
  }));

const cloudEntries = (tenantId: string, sessionId: string, ms: InboundMessage[]) =>
  ms.map((m) => ({
    build: () => buildCloudInbound(tenantId, sessionId, m),
    dedupKey: inboundDedupKey(sessionId, m),
  }));

async function buildCloudInbound(tenantId: string, sessionId: string, m: InboundMessage) {
  return cloudInboundPayload(tenantId, sessionId, await sessionOf(tenantId, sessionId), m);
}

async function buildInbound(
  tenantId: string,
  sessionId: string,
  m: InboundMessage,
  analysis?: MessageAnalysis,
) {
  const [session, sender, mediaUrl] = await Promise.all([
    sessionOf(tenantId, sessionId),
    resolveSender(tenantId, sessionId, m),
    mediaLink(tenantId, m),
  ]);
  return inboundWebhookPayload({
    sessionId,
    mobid: session?.mobid,
    recipient: session?.mobile_number,
    sender,
    message: m,
    mediaUrl,
    analysis,
  });
}

export async function messageStatusWebhook(m: StoredMessage & { status: MessageStatus }) {
  const dedupKey = `${m.sessionId}:${m.messageId}:${m.status}`;
  const [id] = await Promise.all([
    enqueueBuilt(
      m.tenantId,
      m.sessionId,
      'message.status',
      () =>
        withSession(m.tenantId, m.sessionId, (session) =>
          messageStatusPayload({
            ...session,
            messageId: m.messageId,
            chatId: m.chatId,
            direction: m.direction,
            status: m.status,
            reason: m.statusReason,
            at: m.statusAt,
          }),
        ),
      { dedupKey },
    ),
    enqueueBuilt(
      m.tenantId,
      m.sessionId,
      CLOUD_EVENTS.status,
      async () => cloudStatusPayload(await sessionOf(m.tenantId, m.sessionId), m),
      { dedupKey },
    ),
  ]);
  return id;
}

/**
 * Only real changes are sent: of `status`, or of the network's restriction (its reason, end or cap
 * state). A new QR code while linking also updates the session, but is not news to a webhook receiver.
 */
export function sessionStatusWebhook(s: Session) {
  const r = s.restriction;
  const state = r ? `${s.status}|${r.reason}|${r.until ?? ''}|${r.capped ?? ''}` : s.status;
  return enqueueBuilt(
    s.tenantId,
    s.sessionId,
    'session.status',
    async () => {
      const changed = await dataTable.update(
        sessionStatusSentKey(s.tenantId, s.sessionId),
        { type: 'webhook-session-status', status: state, at: s.stateAt },
        {
          // The same event again (same `at`) passes, so a retried host event still queues its delivery.
          condition: 'attribute_not_exists(#st) OR #at = :at OR (#st <> :st AND #at < :at)',
          names: { '#st': 'status', '#at': 'at' },
          values: { ':st': state, ':at': s.stateAt },
        },
      );
      if (!changed) return undefined;
      return sessionStatusOf(s);
    },
    { dedupKey: `${s.sessionId}:${state}:${s.stateAt}` },
  );
}

export function commandResultWebhook(c: CommandRecord) {
  return enqueueBuilt(
    c.tenantId,
    c.sessionId,
    'command.result',
    async () => {
      if (c.status === 'pending') return undefined;
      const status = c.status;
      return withSession(c.tenantId, c.sessionId, (session) =>
        commandResultPayload({
          ...session,
          commandId: c.commandId,
          kind: c.kind,
          status,
          result: c.result,
          error: c.error,
          at: c.completedAt ? Date.parse(c.completedAt) : Date.now(),
        }),
      );
    },
    { dedupKey: `cmd:${c.commandId}` },
  );
}
