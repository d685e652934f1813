import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { statusHistory } from '#shared/sessions/history';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { publicSession } from '#shared/sessions/session';
import {
  CreateBody,
  createSessionRoute,
  deleteSessionRoute,
  historyRoute,
  listSessionsRoute,
  qrRoute,
  reconnectRoute,
  sessionRoute,
  updateSessionRoute,
} from './routes.schema.ts';
import { createSession, deleteSession, reconnectSession, updateSession } from './service.ts';

export function sessionRoutes() {
  const r = router();

  r.openapi(listSessionsRoute, async (c) => {
    const sessions = await listSessions(c.get('auth').tenant);
    return c.json({ success: true as const, sessions: sessions.map(publicSession) }, 200);
  });

  r.openapi(createSessionRoute, async (c) => {
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
  });

  r.openapi(sessionRoute, async (c) => {
    const s = await requireSession(c.get('auth').tenant, c.req.valid('param').sessionId);
    return c.json({ success: true as const, session: publicSession(s) }, 200);
  });

  r.openapi(qrRoute, async (c) => {
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
  });

  r.openapi(historyRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const s = await requireSession(tenant, c.req.valid('param').sessionId);
    const changes = (await statusHistory(tenant, s.sessionId)).map((h) => ({
      status: h.status,
      reason: h.reason ?? null,
      at: new Date(h.at).toISOString(),
    }));
    return c.json({ success: true as const, sessionId: s.sessionId, changes }, 200);
  });

  r.openapi(reconnectRoute, async (c) => {
    const { session, commandId } = await reconnectSession(
      c.get('auth').tenant,
      c.req.valid('param').sessionId,
    );
    return c.json(
      { success: true as const, commandId, status: 'pending' as const, sessionId: session.sessionId },
      202,
    );
  });

  r.openapi(updateSessionRoute, async (c) => {
    const { session, commandId } = await updateSession(
      c.get('auth').tenant,
      c.req.valid('param').sessionId,
      c.req.valid('json'),
    );
    return c.json(
      { success: true as const, session: publicSession(session), ...(commandId ? { commandId } : {}) },
      200,
    );
  });

  r.openapi(deleteSessionRoute, async (c) => {
    const s = await deleteSession(c.get('auth').tenant, c.req.valid('param').sessionId);
    return c.json(
      { success: true as const, message: `session ${s.sessionId} logged out and deactivated` },
      200,
    );
  });
  return r;
}
