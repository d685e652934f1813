import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { toVCard } from '#shared/messages/vcard';
import { sessionOfMobid } from '#shared/sessions/repository';
import { KEPT_MAX, KEPT_MAX_BYTES } from '../network/peers.ts';
import { simNetwork } from '../network.ts';
import { bad, fieldsOf, jsonBody, parsedBody } from './body.ts';
import {
  CallBody,
  ChangeBody,
  GroupsBody,
  HistoryBody,
  InboundBody,
  NumbersBody,
  OwnBody,
  ReceiptBody,
  VoteBody,
} from './control-schemas.ts';

/**
 * The test controls (docs/simulator.md, "Test controls"): what the rest of the network does to an
 * account (writes, votes, calls, edits, receipts), and the faults and inspections tests ask for.
 * An account is named by session id, linked mobile number, or mobid.
 */

/** mobid → session id via the store; session ids and mobile numbers are known to the network. */
async function resolve(identifier: string): Promise<string> {
  if (/^\d{15}$/.test(identifier)) {
    const hit = await sessionOfMobid(identifier);
    if (hit) return hit.sessionId;
  }
  return identifier;
}

const noAccount = (c: Context<AppEnv>, sessionId: string) =>
  c.json(errorBody('SESSION_NOT_FOUND', `no linked account for ${sessionId}`), 404);

export function addControlRoutes(r: Hono<AppEnv>): void {
  r.post('/_sim/inbound', async (c) => {
    const parsed = await parsedBody(c, InboundBody);
    if (!parsed.ok) return parsed.answer;
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
    if (!id) return noAccount(c, b.sessionId);
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
    const parsed = await parsedBody(c, VoteBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const r = simNetwork.vote(await resolve(b.sessionId), {
      pollId: b.messageId,
      from: b.from,
      options: b.options,
      ...(b.groupId ? { groupId: b.groupId } : {}),
    });
    if (r === 'no-account') return noAccount(c, b.sessionId);
    if (r === 'unknown-poll')
      return c.json(errorBody('NOT_FOUND', `no poll ${b.messageId} in the outbox`), 404);
    if (r === 'unknown-option') return c.json(bad("options: each must be one of the poll's options"), 400);
    return c.json({ success: true, messageId: r });
  });

  r.post('/_sim/own', async (c) => {
    const parsed = await parsedBody(c, OwnBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const id = simNetwork.ownMessage(await resolve(b.sessionId), { to: b.to, text: b.text, id: b.id });
    if (!id) return noAccount(c, b.sessionId);
    return c.json({ success: true, messageId: id });
  });

  r.post('/_sim/call', async (c) => {
    const parsed = await parsedBody(c, CallBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const callId = b.callId ?? `CALL${randomBytes(8).toString('hex').toUpperCase()}`;
    const ok = simNetwork.call(await resolve(b.sessionId), {
      callId,
      from: b.from,
      video: b.video,
      status: b.status,
    });
    if (!ok) return noAccount(c, b.sessionId);
    return c.json({ success: true, callId });
  });

  r.post('/_sim/history', async (c) => {
    const parsed = await parsedBody(c, HistoryBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const ids = simNetwork.history(
      await resolve(b.sessionId),
      b.messages.map((m) => ({ ...m, kind: 'text' })),
    );
    if (!ids) return noAccount(c, b.sessionId);
    return c.json({ success: true, messageIds: ids });
  });

  r.post('/_sim/change', async (c) => {
    const parsed = await parsedBody(c, ChangeBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const ok = simNetwork.change(await resolve(b.sessionId), {
      id: b.messageId,
      from: b.from,
      change: b.change,
      ...(b.text !== undefined && b.change === 'edited' ? { text: b.text } : {}),
    });
    if (!ok) return noAccount(c, b.sessionId);
    return c.json({ success: true });
  });

  r.post('/_sim/groups', async (c) => {
    const parsed = await parsedBody(c, GroupsBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const groupId = simNetwork.createGroup(await resolve(b.sessionId), b.subject, b.participants);
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
    const parsed = await parsedBody(c, ReceiptBody);
    if (!parsed.ok) return parsed.answer;
    const b = parsed.data;
    const ok = simNetwork.receipt(await resolve(b.sessionId), b.messageId, b.status);
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
}
