import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { jsonTextProblem } from '#shared/http/json-text';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import { ContactCard, Location, Poll } from '#shared/messages/content';
import { toVCard } from '#shared/messages/vcard';
import { phoneNumberInput } from '#shared/phone/schema';
import { sessionOfMobid } from '#shared/sessions/repository';
import { nodeResponse, nodeSink } from '#shared/stream/sink';
import { KEPT_MAX, KEPT_MAX_BYTES, type Link, simNetwork } from './network.ts';
import { DEVICE_TOKEN_HEADER, DeviceAck, DeviceGroupAction, DeviceSend } from './protocol.ts';

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
  type: z
    .enum(['text', 'image', 'audio', 'voice', 'video', 'document', 'sticker', 'location', 'contact', 'poll'])
    .default('text'),
  text: z.string().max(65_536).optional(),
  mediaUrl: z.string().url().optional(),
  mimetype: z.string().max(200).optional(),
  fileName: z.string().max(300).optional(),
  groupId: z.string().max(100).optional(),
  lid: z.boolean().optional(),
  location: Location.optional(),
  contacts: z.array(ContactCard).min(1).optional(),
  poll: Poll.optional(),
  /** A choice from a list message: `type` text, `text` the row's title (default). */
  listReply: z
    .object({
      id: z.string().min(1).max(200),
      title: z.string().min(1).max(100),
      description: z.string().max(200).optional(),
    })
    .optional(),
});

const VoteBody = z.object({
  sessionId: z.string().min(1),
  from: digits,
  messageId: z.string().min(1).max(100),
  options: z.array(z.string().min(1).max(100)).max(12),
  groupId: z.string().max(100).optional(),
});

/** mobid → session id via the store; session ids and mobile numbers are known to the network. */
async function resolve(identifier: string): Promise<string> {
  if (/^\d{15}$/.test(identifier)) {
    const hit = await sessionOfMobid(identifier);
    if (hit) return hit.sessionId;
  }
  return identifier;
}

/** Bodies of the test controls (`/_sim/inbound` …): small JSON. */
export const SIM_CONTROL_BODY_LIMIT = 1024 * 1024;
/** Bodies of the device protocol: a send carries its media in base64 (64 MiB of media is ~86 MiB). */
export const SIM_DEVICE_BODY_LIMIT = 1.5 * MEDIA_MAX_BYTES;

const limitOf = (path: string) =>
  path.startsWith('/_sim/device/') ? SIM_DEVICE_BODY_LIMIT : SIM_CONTROL_BODY_LIMIT;

class SimBodyTooLargeError extends Error {}

/**
 * The JSON body, or undefined when there is none that parses or it fails the checks every JSON
 * body gets (nesting, Unicode, NUL: json-text.ts). Read up to the route's limit, then refused. Under
 * `npm start`'s Node server it is read from the Node request itself: building a web Request around
 * it cost the service about as much CPU as the rest of the route, and `/_sim/inbound` carries every
 * message of the inbound benchmarks.
 */
async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  const limit = limitOf(c.req.path);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  let text: string;
  if (!incoming?.readable) {
    text = await c.req.text().catch(() => '');
    if (Buffer.byteLength(text) > limit) throw new SimBodyTooLargeError();
  } else {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of incoming) {
        size += (chunk as Buffer).length;
        if (size > limit) throw new SimBodyTooLargeError();
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof SimBodyTooLargeError) throw err;
      return undefined;
    }
    text = Buffer.concat(chunks).toString('utf8');
  }
  if (jsonTextProblem(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body's fields, for the routes that read one or two of them loosely. */
const fieldsOf = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' ? (body as Record<string, unknown>) : {};

const PresenceType = z.enum(['composing', 'recording', 'paused', 'available', 'unavailable']);
const ReadBody = z.object({
  token: z.string(),
  to: z.string().min(1).max(100),
  ids: z.array(z.string().min(1).max(128)).min(1).max(100),
  played: z.array(z.string().min(1).max(128)).max(100),
});

const RejectCallBody = z.object({ token: z.string(), callId: z.string().min(1).max(100) });
const CheckBody = z.object({
  token: z.string(),
  numbers: z
    .array(z.string().regex(/^\d{1,20}$/))
    .min(1)
    .max(100),
});
const NumbersBody = z.object({
  unregistered: z
    .array(z.string().regex(/^\d{1,20}$/))
    .max(1000)
    .optional(),
  registered: z
    .array(z.string().regex(/^\d{1,20}$/))
    .max(1000)
    .optional(),
});

function bad(message: string) {
  return errorBody('VALIDATION_FAILED', message);
}

/** Throws under NODE_ENV=production: the simulated network asks for no credentials. */
export function assertSimulatorAllowed(): void {
  if (process.env.NODE_ENV === 'production')
    throw new Error(
      'the simulated network (/_sim/*, MESSAGING_DRIVER=simulator) needs no credentials and is for tests and demos only; it does not start with NODE_ENV=production',
    );
}

/**
 * The simulator's HTTP face: test controls (routes.md) and the device protocol the driver speaks.
 * It asks for no credentials (it is a stand-in network for tests and demos), so it refuses to exist
 * in production.
 */
export function simulatorRoutes() {
  assertSimulatorAllowed();
  const r = new Hono<AppEnv>();
  const tooLarge = (c: Context<AppEnv>) => {
    c.header('connection', 'close');
    return c.json(errorBody('PAYLOAD_TOO_LARGE', `request body exceeds ${limitOf(c.req.path)} bytes`), 413);
  };
  // A declared length over the limit is refused before any of the body is read.
  r.use('*', async (c, next) => {
    if (Number(c.req.header('content-length') ?? 0) > limitOf(c.req.path)) return tooLarge(c);
    return next();
  });
  r.onError((err, c) =>
    err instanceof SimBodyTooLargeError ? tooLarge(c) : c.json(errorBody('INTERNAL', 'simulator error'), 500),
  );

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
      location: b.location,
      // The network carries contact cards as vCards, as a phone sends them.
      contacts: b.contacts?.map((c) => ({ name: c.name, vcard: toVCard(c) })),
      poll: b.poll && { ...b.poll, multiple: b.poll.multiple ?? false },
      ...(b.listReply
        ? { listReply: b.listReply, text: b.text ?? b.listReply.title, kind: 'text' as const }
        : {}),
    });
    if (!id) return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    if (id === 'full')
      return c.json(
        errorBody(
          'RATE_LIMITED',
          `the account keeps ${KEPT_MAX} messages or ${KEPT_MAX_BYTES} bytes no device has acknowledged; try again later`,
        ),
        429,
      );
    return c.json({ success: true, messageId: id });
  });

  r.get('/_sim/unacked', async (c) => {
    const ids = simNetwork.unacked(await resolve(c.req.query('sessionId') ?? ''));
    if (!ids) return c.json(errorBody('SESSION_NOT_FOUND', 'no such account'), 404);
    return c.json({ success: true, messageIds: ids });
  });

  r.post('/_sim/vote', async (c) => {
    const parsed = VoteBody.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const b = parsed.data;
    const r = simNetwork.vote(await resolve(b.sessionId), {
      pollId: b.messageId,
      from: b.from,
      options: b.options,
      ...(b.groupId ? { groupId: b.groupId } : {}),
    });
    if (r === 'no-account')
      return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    if (r === 'unknown-poll')
      return c.json(errorBody('NOT_FOUND', `no poll ${b.messageId} in the outbox`), 404);
    if (r === 'unknown-option') return c.json(bad("options: each must be one of the poll's options"), 400);
    return c.json({ success: true, messageId: r });
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

  r.post('/_sim/call', async (c) => {
    const parsed = z
      .object({
        sessionId: z.string().min(1),
        from: digits,
        video: z.boolean().default(false),
        status: z.enum(['offer', 'accepted', 'rejected', 'missed', 'ended']).default('offer'),
        callId: z.string().min(1).max(100).optional(),
      })
      .refine((b) => b.status === 'offer' || b.callId, 'callId names the call for a step after offer')
      .safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const b = parsed.data;
    const callId = b.callId ?? `CALL${randomBytes(8).toString('hex').toUpperCase()}`;
    const ok = simNetwork.call(await resolve(b.sessionId), {
      callId,
      from: b.from,
      video: b.video,
      status: b.status,
    });
    if (!ok) return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    return c.json({ success: true, callId });
  });

  r.post('/_sim/history', async (c) => {
    const parsed = z
      .object({
        sessionId: z.string().min(1),
        messages: z
          .array(
            z.object({
              from: digits,
              name: z.string().max(200).optional(),
              text: z.string().min(1).max(65_536),
              timestampMs: z.number().int().positive(),
            }),
          )
          .min(1)
          .max(1000),
      })
      .safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const b = parsed.data;
    const ids = simNetwork.history(
      await resolve(b.sessionId),
      b.messages.map((m) => ({ ...m, kind: 'text' })),
    );
    if (!ids) return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    return c.json({ success: true, messageIds: ids });
  });

  r.post('/_sim/change', async (c) => {
    const parsed = z
      .object({
        sessionId: z.string().min(1),
        from: digits,
        messageId: z.string().min(1).max(100),
        change: z.enum(['edited', 'deleted']),
        text: z.string().min(1).max(65_536).optional(),
      })
      .refine((b) => b.change === 'deleted' || b.text !== undefined, 'text is required for an edit')
      .safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const b = parsed.data;
    const ok = simNetwork.change(await resolve(b.sessionId), {
      id: b.messageId,
      from: b.from,
      change: b.change,
      ...(b.text !== undefined && b.change === 'edited' ? { text: b.text } : {}),
    });
    if (!ok) return c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${b.sessionId}`), 404);
    return c.json({ success: true });
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

  r.post('/_sim/numbers', async (c) => {
    const parsed = NumbersBody.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad('unregistered and registered: arrays of digits'), 400);
    simNetwork.setRegistered(parsed.data.registered ?? [], true);
    simNetwork.setRegistered(parsed.data.unregistered ?? [], false);
    return c.json({ success: true });
  });

  r.get('/_sim/activity', async (c) => {
    const activity = simNetwork.activity(await resolve(c.req.query('sessionId') ?? ''));
    if (!activity) return c.json(errorBody('SESSION_NOT_FOUND', 'no such account'), 404);
    return c.json({ success: true, ...activity });
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

  r.post('/_sim/linking/hold', async (c) => {
    const sessionId = String(fieldsOf(await jsonBody(c)).sessionId ?? '');
    if (!sessionId) return c.json(errorBody('VALIDATION_FAILED', 'sessionId is required'), 400);
    simNetwork.holdLinking(sessionId);
    return c.json({ success: true });
  });

  r.post('/_sim/scan', async (c) => {
    const ok = simNetwork.scan(String(fieldsOf(await jsonBody(c)).sessionId ?? ''));
    if (!ok) return c.json(errorBody('NOT_FOUND', 'no device of that session is linking'), 404);
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

  r.post('/_sim/device/:sessionId/ack', async (c) => {
    const parsed = DeviceAck.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const ok = simNetwork.ack(c.req.param('sessionId'), parsed.data.token, parsed.data.ids);
    return ok ? c.json({ success: true }) : c.json(errorBody('UNAUTHORIZED', 'device not linked'), 401);
  });

  r.post('/_sim/device/:sessionId/read', async (c) => {
    const parsed = ReadBody.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const { token, to, ids, played } = parsed.data;
    const ok = simNetwork.read(c.req.param('sessionId'), token, to, ids, played);
    return ok ? c.json({ success: true }) : c.json(errorBody('UNAUTHORIZED', 'device not linked'), 401);
  });

  r.post('/_sim/device/:sessionId/reject-call', async (c) => {
    const parsed = RejectCallBody.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const ok = simNetwork.rejectCall(c.req.param('sessionId'), parsed.data.token, parsed.data.callId);
    return ok
      ? c.json({ success: true })
      : c.json(errorBody('NOT_FOUND', 'no such call rings this device'), 404);
  });

  r.post('/_sim/device/:sessionId/check', async (c) => {
    const parsed = CheckBody.safeParse(await jsonBody(c));
    if (!parsed.success) return c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400);
    const numbers = simNetwork.checkNumbers(c.req.param('sessionId'), parsed.data.token, parsed.data.numbers);
    return numbers
      ? c.json({ success: true, numbers })
      : c.json(errorBody('UNAUTHORIZED', 'device not linked'), 401);
  });

  r.post('/_sim/device/:sessionId/presence', async (c) => {
    const b = fieldsOf(await jsonBody(c));
    const type = PresenceType.safeParse(b.type);
    if (!type.success) {
      return c.json(bad('type must be composing, recording, paused, available or unavailable'), 400);
    }
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
