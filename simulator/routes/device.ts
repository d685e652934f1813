import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { nodeResponse, nodeSink } from '#shared/stream/sink';
import type { Link } from '../network/accounts.ts';
import { simNetwork } from '../network.ts';
import {
  DEVICE_TOKEN_HEADER,
  DeviceAck,
  DeviceCheck,
  DeviceGroupAction,
  DeviceRead,
  DeviceRejectCall,
  DeviceSend,
  PresenceType,
} from '../protocol.ts';
import { bad, fieldsOf, jsonBody, parsedBody } from './body.ts';

/**
 * The device protocol's routes (simulator/protocol.ts): one SSE stream of frames per linked device,
 * and a POST for each thing it asks of the network. A request with a token the network does not
 * know answers 401.
 */

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

const notLinked = () => errorBody('UNAUTHORIZED', 'device not linked');

export function addDeviceRoutes(r: Hono<AppEnv>): void {
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
    const parsed = await parsedBody(c, DeviceSend);
    if (!parsed.ok) return parsed.answer;
    const { token, mediaBase64, ...m } = parsed.data;
    const ok = simNetwork.send(c.req.param('sessionId'), token, {
      ...m,
      media: mediaBase64 ? Buffer.from(mediaBase64, 'base64') : undefined,
    });
    return ok ? c.json({ success: true }) : c.json(notLinked(), 401);
  });

  r.post('/_sim/device/:sessionId/ack', async (c) => {
    const parsed = await parsedBody(c, DeviceAck);
    if (!parsed.ok) return parsed.answer;
    const ok = simNetwork.ack(c.req.param('sessionId'), parsed.data.token, parsed.data.ids);
    return ok ? c.json({ success: true }) : c.json(notLinked(), 401);
  });

  r.post('/_sim/device/:sessionId/read', async (c) => {
    const parsed = await parsedBody(c, DeviceRead);
    if (!parsed.ok) return parsed.answer;
    const { token, to, ids, played } = parsed.data;
    const ok = simNetwork.read(c.req.param('sessionId'), token, to, ids, played);
    return ok ? c.json({ success: true }) : c.json(notLinked(), 401);
  });

  r.post('/_sim/device/:sessionId/reject-call', async (c) => {
    const parsed = await parsedBody(c, DeviceRejectCall);
    if (!parsed.ok) return parsed.answer;
    const ok = simNetwork.rejectCall(c.req.param('sessionId'), parsed.data.token, parsed.data.callId);
    return ok
      ? c.json({ success: true })
      : c.json(errorBody('NOT_FOUND', 'no such call rings this device'), 404);
  });

  r.post('/_sim/device/:sessionId/check', async (c) => {
    const parsed = await parsedBody(c, DeviceCheck);
    if (!parsed.ok) return parsed.answer;
    const numbers = simNetwork.checkNumbers(c.req.param('sessionId'), parsed.data.token, parsed.data.numbers);
    return numbers ? c.json({ success: true, numbers }) : c.json(notLinked(), 401);
  });

  r.post('/_sim/device/:sessionId/presence', async (c) => {
    const b = fieldsOf(await jsonBody(c));
    const type = PresenceType.safeParse(b.type);
    if (!type.success) {
      return c.json(bad('type must be composing, recording, paused, available or unavailable'), 400);
    }
    const ok = simNetwork.presence(c.req.param('sessionId'), String(b.token), String(b.to), type.data);
    return ok ? c.json({ success: true }) : c.json(notLinked(), 401);
  });

  r.post('/_sim/device/:sessionId/group', async (c) => {
    const parsed = await parsedBody(c, DeviceGroupAction);
    if (!parsed.ok) return parsed.answer;
    const result = simNetwork.groupAction(c.req.param('sessionId'), parsed.data.token, parsed.data);
    return result ? c.json({ success: true, ...result }) : c.json(notLinked(), 401);
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
}
