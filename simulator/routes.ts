import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { phoneNumberInput } from '#shared/phone/schema';
import { sessionOfMobid } from '#shared/sessions/repository';
import { nodeResponse, nodeSink } from '#shared/stream/sink';
import { type Link, simNetwork } from './network.ts';
import { DEVICE_TOKEN_HEADER, DeviceGroupAction, DeviceSend } from './protocol.ts';

const digits = phoneNumberInput();
/** A linked device's stream says it is alive this often when there is nothing else to send. */
const PING_MS = 10_000;

/**
 * A device's link on the raw Node response (the simulator is served by `npm start`'s Node server
 * only): each frame written as it is pushed, in order, with a ping when there is nothing else.
 */
function serveLink(res: ServerResponse, sessionId: string, opts: Parameters<typeof simNetwork.attach>[2]) {
  const sink = nodeSink(res, {});
  const link: Link = {
    id: simNetwork.newLinkId(),
    push: (frame) => sink.write(`data: ${JSON.stringify(frame)}\n\n`),
    // The network ends the link: the stream ends cleanly, as a closed socket would.
    end: () => res.end(),
  };
  const ping = setInterval(() => sink.write(': ping\n\n'), PING_MS);
  void sink.gone.then(() => {
    clearInterval(ping);
    simNetwork.detach(sessionId, link);
  });
  simNetwork.attach(sessionId, link, opts);
}

const InboundBody = z.object({
  sessionId: z.string().min(1),
  from: digits,
  name: z.string().max(200).optional(),
  type: z.enum(['text', 'image', 'audio', 'voice', 'video', 'document', 'sticker']).default('text'),
  text: z.string().max(65_536).optional(),
  mediaUrl: z.string().url().optional(),
  mimetype: z.string().max(200).optional(),
  fileName: z.string().max(300).optional(),
  groupId: z.string().max(100).optional(),
  lid: z.boolean().optional(),
});

/** mobid → session id via the store; session ids and mobile numbers are known to the network. */
async function resolve(identifier: string): Promise<string> {
  if (/^\d{15}$/.test(identifier)) {
    const hit = await sessionOfMobid(identifier);
    if (hit) return hit.sessionId;
  }
  return identifier;
}

/**
 * The JSON body, or undefined when there is none that parses. Under `npm start`'s Node server it is
 * read from the Node request itself: building a web Request around it cost the service about as much
 * CPU as the rest of the route, and `/_sim/inbound` carries every message of the inbound benchmarks.
 */
async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming?.readable) return c.req.json().catch(() => undefined);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The body's fields, for the routes that read one or two of them loosely. */
const fieldsOf = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' ? (body as Record<string, unknown>) : {};

const PresenceType = z.enum(['composing', 'recording', 'paused']);

function bad(message: string) {
  return errorBody('VALIDATION_FAILED', message);
}

/** The simulator's HTTP face: test controls (routes.md) and the device protocol the driver speaks. */
export function simulatorRoutes() {
  const r = new Hono<AppEnv>();

  r.post('/_sim/inbound', async (c) => {
    const parsed = InboundBody.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const b = parsed.data;
    const id = simNetwork.inbound(await resolve(b.sessionId), {
      from: b.from,
      name: b.name,
      kind: b.type,
      text: b.text,
      mediaUrl: b.mediaUrl,
      mimetype: b.mimetype,
      fileName: b.fileName,
      groupId: b.groupId,
      lidMode: b.lid,
    });
    if (!id) return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    return c.json({ success: true, messageId: id });
  });

  r.post('/_sim/own', async (c) => {
    const parsed = z
      .object({
        sessionId: z.string().min(1),
        to: digits,
        text: z.string().min(1).max(65_536),
        id: z.string().min(1).max(100).optional(),
      })
      .safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const b = parsed.data;
    const id = simNetwork.ownMessage(await resolve(b.sessionId), { to: b.to, text: b.text, id: b.id });
    if (!id) return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    return c.json({ success: true, messageId: id });
  });

  r.post('/_sim/groups', async (c) => {
    const parsed = z
      .object({
        sessionId: z.string(),
        subject: z.string().min(1).max(200),
        participants: z.array(z.object({ phone: digits, name: z.string().optional() })).max(1000),
      })
      .safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const groupId = simNetwork.createGroup(
      await resolve(parsed.data.sessionId),
      parsed.data.subject,
      parsed.data.participants,
    );
    if (!groupId) return c.json(errorBody('SESSION_NOT_FOUND', 'no such account'), 404);
    return c.json({ success: true, groupId });
  });

  r.get('/_sim/outbox', async (c) => {
    const messages = simNetwork.outbox(await resolve(c.req.query('sessionId') ?? ''));
    if (!messages) return c.json(errorBody('SESSION_NOT_FOUND', 'no such account'), 404);
    return c.json({ success: true, messages });
  });

  r.post('/_sim/receipt', async (c) => {
    const parsed = z
      .object({ sessionId: z.string(), messageId: z.string(), status: z.enum(['delivered', 'read']) })
      .safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const ok = simNetwork.receipt(
      await resolve(parsed.data.sessionId),
      parsed.data.messageId,
      parsed.data.status,
    );
    if (!ok) return c.json(errorBody('NOT_FOUND', 'no such message in the outbox'), 404);
    return c.json({ success: true });
  });

  r.post('/_sim/disconnect', async (c) => {
    const body = fieldsOf(await jsonBody(c));
    const ok = simNetwork.disconnect(await resolve(String(body.sessionId ?? '')));
    if (!ok) return c.json(errorBody('NOT_FOUND', 'session has no live connection'), 404);
    return c.json({ success: true });
  });

  r.post('/_sim/freeze', async (c) => {
    const body = fieldsOf(await jsonBody(c));
    const ok = simNetwork.freeze(await resolve(String(body.sessionId ?? '')));
    if (!ok) return c.json(errorBody('NOT_FOUND', 'session has no live connection'), 404);
    return c.json({ success: true });
  });

  // Device protocol: one SSE stream of frames per linked device, and POSTs for what it sends.
  r.get('/_sim/device/:sessionId/link', (c) => {
    const sessionId = c.req.param('sessionId');
    const method = c.req.query('method') === 'phone' ? 'phone' : 'qr';
    const token = c.req.header(DEVICE_TOKEN_HEADER) || undefined;
    const phoneNumber = c.req.query('phoneNumber') || undefined;
    // Written straight to the Node response, as the tenant stream is: the simulated network is the
    // load in front of every inbound benchmark, so it stays light.
    const outgoing = nodeResponse(c);
    if (!outgoing) return c.json(errorBody('INTERNAL', 'device links need the Node server'), 500);
    serveLink(outgoing, sessionId, { token, method, phoneNumber });
    return RESPONSE_ALREADY_SENT;
  });

  r.post('/_sim/device/:sessionId/send', async (c) => {
    const parsed = DeviceSend.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const { token, mediaBase64, ...m } = parsed.data;
    const ok = simNetwork.send(c.req.param('sessionId'), token, {
      ...m,
      media: mediaBase64 ? Buffer.from(mediaBase64, 'base64') : undefined,
    });
    return ok ? c.json({ success: true }) : c.json(errorBody('UNAUTHORIZED', 'device not linked'), 401);
  });

  r.post('/_sim/device/:sessionId/presence', async (c) => {
    const b = fieldsOf(await jsonBody(c));
    const type = PresenceType.safeParse(b.type);
    if (!type.success) return c.json(bad('type must be composing, recording or paused'), 400);
    const ok = simNetwork.presence(c.req.param('sessionId'), String(b.token), String(b.to), type.data);
    return ok ? c.json({ success: true }) : c.json(errorBody('UNAUTHORIZED', 'device not linked'), 401);
  });

  r.post('/_sim/device/:sessionId/group', async (c) => {
    const parsed = DeviceGroupAction.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const result = simNetwork.groupAction(c.req.param('sessionId'), parsed.data.token, parsed.data);
    return result
      ? c.json({ success: true, ...result })
      : c.json(errorBody('UNAUTHORIZED', 'device not linked'), 401);
  });

  r.post('/_sim/device/:sessionId/probe', async (c) => {
    const b = fieldsOf(await jsonBody(c));
    const ok = simNetwork.probe(c.req.param('sessionId'), String(b.token));
    return ok
      ? c.json({ success: true })
      : c.json(errorBody('UPSTREAM_UNAVAILABLE', 'no answer on this link'), 504);
  });

  r.post('/_sim/device/:sessionId/logout', async (c) => {
    const b = fieldsOf(await jsonBody(c));
    simNetwork.logout(c.req.param('sessionId'), String(b.token));
    return c.json({ success: true });
  });

  return r;
}
