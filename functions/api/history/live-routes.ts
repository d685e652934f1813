import { tenantOfPortal } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';
import { mediaLink } from '#shared/presentation/media-link';
import { resolveSender } from '#shared/presentation/sender';
import { streamPayload } from '#shared/stream/payload';
import { liveMessagesRoute, MSG_KINDS } from './live-routes.schema.ts';

/** The SSE stream's payload (shared/stream/payload.ts), so the feed and the stream read alike. */
async function payloadOf(tenantId: string, m: StoredMessage) {
  const [sender, url] = await Promise.all([resolveSender(tenantId, m.sessionId, m), mediaLink(tenantId, m)]);
  const p = streamPayload(m, sender, url, m.analysis);
  return {
    ...p,
    event: m.direction === 'inbound' ? ('message:inbound' as const) : ('message:outbound' as const),
    messageId: m.messageId,
  };
}

export function liveRoutes() {
  const r = router();
  r.openapi(liveMessagesRoute, async (c) => {
    const { portal_id } = c.req.valid('param');
    const q = c.req.valid('query');
    const tenantId = await tenantOfPortal(portal_id);
    if (!tenantId) throw new NotFoundError(`portal ${portal_id} not found`);
    const messages = await queryMessages(
      {
        tenantId,
        direction: q.type === 'all' ? undefined : q.type,
        kinds: q.msgType ? MSG_KINDS[q.msgType] : undefined,
      },
      q.limit,
    );
    const payloads = await Promise.all(messages.map((m) => payloadOf(tenantId, m)));
    return c.json({ success: true as const, portal_id, count: payloads.length, messages: payloads }, 200);
  });
  return r;
}
