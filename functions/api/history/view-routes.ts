import type { z } from '@hono/zod-openapi';
import { tokenOrApiKey } from '#shared/auth/host-auth';
import { router } from '#shared/http/context';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';
import { userJid } from '#shared/phone/jid';
import { mediaLink } from '#shared/presentation/media-link';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { chatsOfNumber, queryChats } from './chats.ts';
import { displayText, LidResolver, partyJid } from './readable.ts';
import { type LiveMessage, viewRoute } from './view-routes.schema.ts';

async function liveMessage(m: StoredMessage, resolver: LidResolver): Promise<z.infer<typeof LiveMessage>> {
  const outbound = m.direction === 'outbound';
  const [sender, chat, mediaUrl] = await Promise.all([
    resolver.sender(m),
    resolver.chat(m.sessionId, m.chatId),
    mediaLink(m.tenantId, m),
  ]);
  return {
    id: m.messageId,
    from: sender ? partyJid(sender) : outbound ? 'me' : '',
    chat: partyJid(chat),
    senderName: m.senderName ?? '',
    text: displayText(m),
    timestamp: Math.floor(m.timestampMs / 1000),
    fromMe: outbound,
    direction: m.direction,
    sessionId: m.sessionId,
    type: m.kind,
    status: m.status,
    reason: m.status === 'failed' ? (m.statusReason ?? null) : null,
    mediaUrl,
    mimetype: m.mimetype ?? null,
    fileName: m.fileName ?? null,
    transcription: m.analysis?.transcription ?? null,
    ocrText: m.analysis?.ocrText ?? null,
  };
}

export function viewRoutes() {
  const r = router();
  r.use('/messages/v1', tokenOrApiKey({ peerIsClient: true }));
  r.openapi(viewRoute, async (c) => {
    const tenantId = c.get('auth').tenant;
    const q = c.req.valid('query');
    const phone = q.phone ?? q.number;
    const session = q.sessionId ? await requireSession(tenantId, q.sessionId) : undefined;
    const base = {
      tenantId,
      sessionId: session?.sessionId,
      direction: q.type === 'all' ? undefined : q.type,
    };
    let messages: StoredMessage[];
    let jid: string | null = null;
    if (phone) {
      const sessions = session ? [session] : await listSessions(tenantId);
      const { phones, chatIds } = await chatsOfNumber(tenantId, phone, sessions);
      messages = await queryChats(base, chatIds, q.limit);
      const shown =
        messages.find((m) => phones.includes(m.chatId))?.chatId ?? phones[phones.length - 1] ?? phone;
      jid = userJid(shown);
    } else {
      messages = await queryMessages(base, q.limit);
    }
    const resolver = new LidResolver(tenantId);
    const out = await Promise.all(messages.map((m) => liveMessage(m, resolver)));
    return c.json(
      {
        success: true as const,
        timestamp: new Date().toISOString(),
        filter: { sessionId: q.sessionId ?? 'all', phone: phone ?? null, jid, type: q.type },
        count: out.length,
        messages: out,
      },
      200,
    );
  });
  return r;
}
