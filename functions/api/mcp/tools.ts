import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CHECK_MAX } from '#shared/commands/types';
import { toServiceError } from '#shared/http/service-app';
import { logger } from '#shared/log/logger';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { publicSession } from '#shared/sessions/session';
import { listDeliveries } from '#shared/webhooks/repository';
import { checkNumbers } from '../contacts/check.ts';
import { ChatId, chatHistory, latestPerChat } from '../history/formatted.ts';
import { buildContent } from '../messages/content-builder.ts';
import { IdempotencyKey, runOnce } from '../messages/idempotency.ts';
import { Recipient } from '../messages/recipient.ts';
import { acceptSend } from '../messages/send-service.ts';
import { requireReadySession } from '../sessions/service.ts';
import { deliveryView } from '../webhooks/delivery-view.ts';

/** What every tool call knows: the caller's tenant (from its bearer token) and the request id. */
export interface McpCaller {
  tenantId: string;
  requestId: string;
}

const Session = z.string().min(1).max(100).describe('The session: mobid, mobile number or session id');
const Limit = z.number().int().min(1).max(500).default(20);

const Key = IdempotencyKey.optional().describe(
  'Optional key of your choice (1-255 printable ASCII, e.g. a UUID): a retry with the same key and arguments within 24 hours answers the first answer (replayed: true) and sends nothing; the same key with other arguments is refused (IDEMPOTENCY_KEY_REUSED). Keys are shared with the REST Idempotency-Key header.',
);

/** A send at most once per idempotency key (messages/idempotency.ts), when the call gives one. */
async function once<T extends object>(
  caller: McpCaller,
  tool: string,
  key: string | undefined,
  request: unknown,
  send: () => Promise<T>,
): Promise<T & { replayed?: true }> {
  if (!key) return send();
  const { answer, replayed } = await runOnce(
    { tenantId: caller.tenantId, key, scope: `MCP ${tool}`, request },
    send,
    caller.requestId,
  );
  return replayed ? { ...answer, replayed: true as const } : answer;
}

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

/**
 * Runs a tool: its answer as JSON text; a refusal as an error result naming our code and message,
 * as the REST API would (an unexpected error only by the request id, logged here).
 */
async function run(caller: McpCaller, tool: string, fn: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await fn()) }] };
  } catch (err) {
    const svc = toServiceError(err, caller.requestId);
    if (svc.code === 'INTERNAL') logger.error({ err, requestId: caller.requestId, tool }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: `${svc.code}: ${svc.message}` }] };
  }
}

/** The tools: each a thin call into the same services the REST routes use, scoped to the caller's tenant. */
export function registerTools(server: McpServer, caller: McpCaller): void {
  const { tenantId } = caller;

  server.registerTool(
    'list_sessions',
    { description: 'The sessions (linked accounts) of this tenant with their live status', inputSchema: {} },
    () =>
      run(caller, 'list_sessions', async () => ({
        sessions: (await listSessions(tenantId)).map(publicSession),
      })),
  );

  server.registerTool(
    'get_session_qr',
    {
      description:
        'The QR code text (and pairing code) to link a session, while it is waiting to be linked (status QR_READY or PAIRING); null otherwise',
      inputSchema: { session: Session },
    },
    ({ session }) =>
      run(caller, 'get_session_qr', async () => {
        const s = await requireSession(tenantId, session);
        const live = s.status === 'QR_READY' || s.status === 'PAIRING';
        return {
          sessionId: s.sessionId,
          status: s.status,
          qr: live ? (s.qr ?? null) : null,
          pairingCode: live ? (s.pairingCode ?? null) : null,
        };
      }),
  );

  server.registerTool(
    'list_chats',
    {
      description: "The latest message of each of a session's most recent chats, newest first",
      inputSchema: { session: Session, limit: Limit },
    },
    ({ session, limit }) =>
      run(caller, 'list_chats', async () => ({
        chats: await latestPerChat(await requireSession(tenantId, session), limit),
      })),
  );

  server.registerTool(
    'read_messages',
    {
      description: "A chat's latest messages, oldest first, with readable phone numbers",
      inputSchema: {
        session: Session,
        chatId: ChatId.describe('A phone number (with or without country code), <lid>@lid or <id>@g.us'),
        limit: Limit,
      },
    },
    ({ session, chatId, limit }) =>
      run(caller, 'read_messages', async () =>
        chatHistory(await requireSession(tenantId, session), chatId, limit),
      ),
  );

  server.registerTool(
    'check_numbers',
    {
      description:
        'Which phone numbers have an account on the network, asked through a READY session (as POST /api/contacts/check). Answers each number with exists and its account id; when the network is slow, status pending and a commandId to read later',
      inputSchema: {
        session: Session,
        numbers: z
          .array(Recipient)
          .min(1)
          .max(CHECK_MAX)
          .describe(`1 to ${CHECK_MAX} phone numbers with country code, in any common notation`),
      },
    },
    ({ session, numbers }) =>
      run(caller, 'check_numbers', async () => {
        const s = await requireReadySession(tenantId, session);
        const done = await checkNumbers(s, numbers);
        return { sessionId: s.sessionId, ...done };
      }),
  );

  server.registerTool(
    'send_text',
    {
      description:
        'Queues a text message from a READY session; counts against its monthly quota. Answers the message id (follow it with read_messages)',
      inputSchema: {
        session: Session,
        to: Recipient.describe('Recipient phone number with country code'),
        text: z.string().min(1).max(4096),
        idempotencyKey: Key,
      },
    },
    ({ session, to, text, idempotencyKey }) =>
      run(caller, 'send_text', () =>
        once(caller, 'send_text', idempotencyKey, { session, to, text }, async () => {
          const s = await requireReadySession(tenantId, session);
          const { messageId } = await acceptSend({
            session: s,
            to,
            content: buildContent('text', { text }),
            requestId: caller.requestId,
          });
          return { messageId, status: 'queued', sessionId: s.sessionId, to };
        }),
      ),
  );

  server.registerTool(
    'send_media',
    {
      description: 'Queues an image, video, audio, voice note or document given by a public URL',
      inputSchema: {
        session: Session,
        to: Recipient.describe('Recipient phone number with country code'),
        type: z.enum(['image', 'video', 'audio', 'voice', 'document', 'pdf']),
        url: z.url({ protocol: /^https?$/ }),
        caption: z.string().max(1024).optional(),
        fileName: z.string().max(255).optional(),
        idempotencyKey: Key,
      },
    },
    ({ session, to, type, url, caption, fileName, idempotencyKey }) =>
      run(caller, 'send_media', () =>
        once(
          caller,
          'send_media',
          idempotencyKey,
          { session, to, type, url, caption, fileName },
          async () => {
            const s = await requireReadySession(tenantId, session);
            const { messageId } = await acceptSend({
              session: s,
              to,
              content: buildContent(type, { mediaUrl: url, caption, fileName }),
              requestId: caller.requestId,
            });
            return { messageId, status: 'queued', sessionId: s.sessionId, to };
          },
        ),
      ),
  );
}

/** The webhook delivery log as a resource: the tenant's latest deliveries and their attempts. */
export function registerResources(server: McpServer, caller: McpCaller): void {
  server.registerResource(
    'webhook_deliveries',
    'webhooks://deliveries',
    {
      description: "This tenant's latest 50 webhook deliveries (status, attempts, payload), newest first",
      mimeType: 'application/json',
    },
    async (uri) => {
      const deliveries = await listDeliveries(caller.tenantId, { limit: 50 });
      const shown = deliveries.map(deliveryView);
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ deliveries: shown }) },
        ],
      };
    },
  );
}
