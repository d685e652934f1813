import { z } from '@hono/zod-openapi';
import { ok, routesTagged } from '#shared/http/schemas';
import { phoneNumberInput } from '#shared/phone/schema';
import { SESSION_HISTORY_MAX } from '#shared/sessions/history';
import { Restriction } from '#shared/sessions/restriction';
import { SettingsFields } from './settings.ts';

/**
 * The definitions of the session routes (routes.ts): their schemas, which also make /openapi.json,
 * kept apart so that the router reads as a list of routes and their handlers.
 */

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
        reason: Restriction.shape.reason,
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

export const CreateBody = z
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

const route = routesTagged('sessions');

export const listSessionsRoute = route({
  method: 'get',
  path: '/',
  summary: 'List sessions',
  responses: { 200: ok({ sessions: z.array(SessionSchema) }) },
});

export const createSessionRoute = route({
  method: 'post',
  path: '/',
  summary: 'Create a session and start linking (QR or pairing code)',
  request: { body: { required: false, content: { 'application/json': { schema: CreateBody } } } },
  responses: {
    201: ok({
      message: z.string(),
      session: z.object({
        sessionId: z.string(),
        mobid: z.string(),
        status: z.string(),
        method: z.string(),
      }),
    }),
  },
});

export const sessionRoute = route({
  method: 'get',
  path: '/{sessionId}',
  summary: 'Session info',
  request: { params: SessionIdParam },
  responses: { 200: ok({ session: SessionSchema }) },
});

export const qrRoute = route({
  method: 'get',
  path: '/{sessionId}/qr',
  summary: 'The linking QR as PNG, or JSON {success, qr, pairingCode, status} with Accept: application/json',
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
  },
});

export const historyRoute = route({
  method: 'get',
  path: '/{sessionId}/history',
  summary: `The session's last ${SESSION_HISTORY_MAX} status changes, newest first (health and reconnect history)`,
  request: { params: SessionIdParam },
  responses: { 200: ok({ sessionId: z.string(), changes: z.array(StatusChangeSchema) }) },
});

export const reconnectRoute = route({
  method: 'post',
  path: '/{sessionId}/reconnect',
  summary:
    'Drop the link and connect again at once from the stored credentials (backoff reset); brings back FAILED and DISCONNECTED sessions',
  request: { params: SessionIdParam },
  responses: { 202: ok({ commandId: z.string(), status: z.literal('pending'), sessionId: z.string() }) },
});

export const updateSessionRoute = route({
  method: 'patch',
  path: '/{sessionId}',
  summary: 'Change session settings (only the fields given; null clears an optional one)',
  request: {
    params: SessionIdParam,
    body: { required: true, content: { 'application/json': { schema: UpdateBody } } },
  },
  responses: {
    200: ok({
      session: SessionSchema,
      commandId: z.string().optional().openapi({
        description: 'The reconnect that applies a changed proxy (GET /api/commands/{id})',
      }),
    }),
  },
});

export const deleteSessionRoute = route({
  method: 'delete',
  path: '/{sessionId}',
  summary: 'Log out, remove auth state, keep the record as inactive (idempotent)',
  request: { params: SessionIdParam },
  responses: { 200: ok({ message: z.string() }) },
});
