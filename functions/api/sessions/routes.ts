import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { phoneNumberInput } from '#shared/phone/schema';
import { SESSION_HISTORY_MAX, statusHistory } from '#shared/sessions/history';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { publicSession } from '#shared/sessions/session';
import { createSession, deleteSession, reconnectSession, updateSession } from './service.ts';
import { SettingsFields } from './settings.ts';

const SessionSchema = z
  .object({
    sessionId: z.string(),
    mobid: z.string(),
    mobile_number: z.string().nullable(),
    name: z.string().nullable(),
    status: z.string(),
    dbStatus: z.string(),
    method: z.string(),
    reason: z.string().nullable(),
    restriction: z
      .object({
        reason: z.enum(['restricted_new_chats', 'reachout_timelock', 'message_capping']),
        until: z.string().nullable(),
        cap: z.number().int().nullable(),
        used: z.number().int().nullable(),
        capped: z.boolean().nullable(),
        detail: z.string().nullable(),
      })
      .nullable()
      .openapi({
        description:
          'The network\'s restriction on starting new chats (docs/sessions.md, "Restrictions"); null when none',
      }),
    reconnectAttempt: z.number().int().openapi({
      description: 'Reconnect attempts since the session was last READY; 0 unless status is RECONNECTING',
    }),
    nextRetryAt: z
      .string()
      .nullable()
      .openapi({ description: 'When the next reconnect attempt starts (ISO time), while RECONNECTING' }),
    lastDisconnect: z
      .object({
        code: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "The network's status code, if it gave one" }),
        reason: z.string(),
        at: z.string(),
      })
      .nullable()
      .openapi({ description: 'Why the last link ended' }),
    rejectCalls: z.boolean().openapi({ description: 'Calls are declined as they ring' }),
    rejectMessage: z.string().nullable().openapi({ description: 'Sent to a caller after a declined call' }),
    syncHistory: z
      .object({ days: z.number().int() })
      .nullable()
      .openapi({ description: 'The history asked for at linking; null when none' }),
    proxyUrl: z
      .string()
      .nullable()
      .openapi({ description: 'The proxy the session links through, its password masked; null when none' }),
    createdAt: z.string(),
  })
  .openapi('Session');

const SessionIdParam = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ description: 'Session id, mobid or mobile number', param: { name: 'sessionId', in: 'path' } }),
});

/** How far back a session may ask for the phone's history at linking. */
const HISTORY_DAYS_MAX = 365;

const CreateBody = z
  .object({
    name: z.string().trim().max(100).optional(),
    method: z.enum(['qr', 'phone']).default('qr'),
    phoneNumber: phoneNumberInput().optional(),
    syncHistory: z
      .object({ days: z.number().int().min(1).max(HISTORY_DAYS_MAX) })
      .strict()
      .optional()
      .openapi({
        description: `Store the messages the phone sends at linking from the last \`days\` (1–${HISTORY_DAYS_MAX}), marked history: true (docs/sessions.md, "History sync"); default off`,
      }),
    ...SettingsFields,
  })
  .refine((b) => b.method !== 'phone' || b.phoneNumber, {
    message: 'phoneNumber is required when method is phone',
    path: ['phoneNumber'],
  });

/** What a tenant may change about a session; every field optional, at least one given (`null` clears). */
const UpdateBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional().openapi({ description: 'The name people see' }),
    ...SettingsFields,
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .openapi('SessionUpdate');
const StatusChangeSchema = z
  .object({
    status: z.string(),
    reason: z.string().nullable(),
    at: z.string().openapi({ description: 'When the host reported it (ISO time)' }),
  })
  .openapi('SessionStatusChange');

const tags = ['sessions'];

export function sessionRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      security: bearer,
      summary: 'List sessions',
      responses: {
        200: json(z.object({ success: z.literal(true), sessions: z.array(SessionSchema) })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const sessions = await listSessions(c.get('auth').tenant);
      return c.json({ success: true as const, sessions: sessions.map(publicSession) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      security: bearer,
      summary: 'Create a session and start linking (QR or pairing code)',
      request: { body: { required: false, content: { 'application/json': { schema: CreateBody } } } },
      responses: {
        201: json(
          z.object({
            success: z.literal(true),
            message: z.string(),
            session: z.object({
              sessionId: z.string(),
              mobid: z.string(),
              status: z.string(),
              method: z.string(),
            }),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const hasBody = c.req.header('content-type')?.includes('json');
      const body = hasBody ? c.req.valid('json') : CreateBody.parse({});
      const s = await createSession(c.get('auth').tenant, body);
      return c.json(
        {
          success: true as const,
          message: 'session created; linking started',
          session: { sessionId: s.sessionId, mobid: s.mobid, status: s.status, method: s.method },
        },
        201,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{sessionId}',
      tags,
      security: bearer,
      summary: 'Session info',
      request: { params: SessionIdParam },
      responses: {
        200: json(z.object({ success: z.literal(true), session: SessionSchema })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const s = await requireSession(c.get('auth').tenant, c.req.valid('param').sessionId);
      return c.json({ success: true as const, session: publicSession(s) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{sessionId}/qr',
      tags,
      security: bearer,
      summary:
        'The linking QR as PNG, or JSON {success, qr, pairingCode, status} with Accept: application/json',
      request: { params: SessionIdParam },
      responses: {
        200: {
          description: 'QR',
          content: {
            'image/png': { schema: z.string().openapi({ format: 'binary' }) },
            'application/json': {
              schema: z.object({
                success: z.literal(true),
                qr: z.string().nullable(),
                pairingCode: z.string().nullable(),
                status: z.string(),
              }),
            },
          },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const s = await requireSession(c.get('auth').tenant, c.req.valid('param').sessionId);
      const live = s.status === 'QR_READY' || s.status === 'PAIRING';
      const qr = live ? (s.qr ?? null) : null;
      const pairingCode = live ? (s.pairingCode ?? null) : null;
      if (c.req.header('accept')?.includes('application/json')) {
        return c.json({ success: true as const, qr, pairingCode, status: s.status }, 200);
      }
      if (!qr) throw new NotFoundError(`session ${s.sessionId} has no QR to show (status ${s.status})`);
      // Imported on first use: most API requests never draw a QR code (cold start, docs/benchmarks.md).
      const { default: QRCode } = await import('qrcode');
      const png = await QRCode.toBuffer(qr, { type: 'png', margin: 2, width: 300 });
      return c.body(new Uint8Array(png), 200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{sessionId}/history',
      tags,
      security: bearer,
      summary: `The session's last ${SESSION_HISTORY_MAX} status changes, newest first (health and reconnect history)`,
      request: { params: SessionIdParam },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionId: z.string(),
            changes: z.array(StatusChangeSchema),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const s = await requireSession(tenant, c.req.valid('param').sessionId);
      const changes = (await statusHistory(tenant, s.sessionId)).map((h) => ({
        status: h.status,
        reason: h.reason ?? null,
        at: new Date(h.at).toISOString(),
      }));
      return c.json({ success: true as const, sessionId: s.sessionId, changes }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/{sessionId}/reconnect',
      tags,
      security: bearer,
      summary:
        'Drop the link and connect again at once from the stored credentials (backoff reset); brings back FAILED and DISCONNECTED sessions',
      request: { params: SessionIdParam },
      responses: {
        202: json(
          z.object({
            success: z.literal(true),
            commandId: z.string(),
            status: z.literal('pending'),
            sessionId: z.string(),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { session, commandId } = await reconnectSession(
        c.get('auth').tenant,
        c.req.valid('param').sessionId,
      );
      return c.json(
        { success: true as const, commandId, status: 'pending' as const, sessionId: session.sessionId },
        202,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'patch',
      path: '/{sessionId}',
      tags,
      security: bearer,
      summary: 'Change session settings (only the fields given; null clears an optional one)',
      request: {
        params: SessionIdParam,
        body: { required: true, content: { 'application/json': { schema: UpdateBody } } },
      },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            session: SessionSchema,
            commandId: z.string().optional().openapi({
              description: 'The reconnect that applies a changed proxy (GET /api/commands/{id})',
            }),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { session, commandId } = await updateSession(
        c.get('auth').tenant,
        c.req.valid('param').sessionId,
        c.req.valid('json'),
      );
      return c.json(
        { success: true as const, session: publicSession(session), ...(commandId ? { commandId } : {}) },
        200,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/{sessionId}',
      tags,
      security: bearer,
      summary: 'Log out, remove auth state, keep the record as inactive (idempotent)',
      request: { params: SessionIdParam },
      responses: {
        200: json(z.object({ success: z.literal(true), message: z.string() })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const s = await deleteSession(c.get('auth').tenant, c.req.valid('param').sessionId);
      return c.json(
        { success: true as const, message: `session ${s.sessionId} logged out and deactivated` },
        200,
      );
    },
  );
  return r;
}
