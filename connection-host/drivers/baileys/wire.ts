import {
  downloadMediaMessage,
  type GroupMetadata,
  proto,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { LidCache } from '#shared/contacts/lid-cache';
import type { Logger } from '#shared/log/logger';
import { lidJid } from '#shared/phone/jid';
import type { DriverEvents } from '../driver.ts';
import { changeOfUpdate } from './changes.ts';
import { lidOfJid, phoneOfJid } from './jids.ts';
import { fetchMedia, type MediaSource } from './media-download.ts';
import { normaliseContacts, normaliseGroup, normaliseMessage, normaliseOwnMessage } from './normalise.ts';
import { outcomeOfStatus, outcomeOfUpdate, receiptOfUserReceipt } from './outcomes.ts';
import { decryptVote, type PollLookup, pollUpdateOf } from './poll-votes.ts';

export interface WireContext {
  sock: WASocket;
  events: DriverEvents;
  log: Logger;
  maxMediaBytes: number;
  mediaTimeoutMs: number;
  /** Group metadata seen on this link (also serves Baileys' cachedGroupMetadata). */
  groups: { set(id: string, g: GroupMetadata): unknown };
  /** Phone digits of contacts seen on this link (status audience). */
  contacts: { add(phone: string): unknown };
  /** LID → phone digits as revealed to this session. */
  lids: LidCache;
  /**
   * Ids this link sent lately: the network echoes our own sends as own messages, which are not the
   * business writing from its phone. Saves the events consumer a store check per send; the
   * consumer's check by id stays the authority (a restarted link forgets these).
   */
  sentIds?: { has(id: string): boolean };
  /** The polls the account sent, as kept (sentWire): votes on them are decrypted with their secret. */
  polls?: PollLookup;
  /** Media downloads go through the session's proxy when it has one (connection-host/proxy.ts). */
  mediaDispatcher?: unknown;
  /** The session asked for the phone's history at linking: received messages of the last `days`. */
  history?: { days: number };
}

/**
 * Subscribes to the socket's data events and reports them in our shapes. Every handler catches
 * its own errors: nothing here may become an unhandled rejection. `drain` settles once the
 * inbound messages received so far have been reported.
 */
export function wireEvents(ctx: WireContext): {
  drain(): Promise<void>;
  /** Reports a `messages.upsert` payload that did not come through the socket's events (see link-lifecycle.ts). */
  upsert(payload: { messages: WAMessage[]; type: string }): void;
} {
  const { sock, events, log } = ctx;
  const phones = ctx.lids;
  const phoneForLid = (lid: string) => phones.get(lid);

  const learn = (lid: string | undefined, phone: string | undefined) => {
    if (lid && phone && phones.set(lid, phone)) events.onLidMapping(lid, phone);
  };

  /** Fills the LID map from Baileys' own store for the LIDs about to be normalised. */
  const resolve = async (jids: Array<string | null | undefined>) => {
    const lids = [...new Set(jids.map(lidOfJid).filter((l): l is string => !!l && !phones.get(l)))];
    if (lids.length === 0) return;
    try {
      const found = await sock.signalRepository.lidMapping.getPNsForLIDs(lids.map((l) => lidJid(l)));
      for (const m of found ?? []) {
        const lid = lidOfJid(m.lid);
        const phone = phoneOfJid(m.pn);
        if (lid && phone) phones.set(lid, phone);
      }
    } catch (err) {
      log.debug({ err }, 'LID lookup failed');
    }
  };

  const guard =
    <A>(what: string, fn: (arg: A) => Promise<void> | void) =>
    (arg: A) => {
      Promise.resolve()
        .then(() => fn(arg))
        .catch((err) => log.warn({ err }, `baileys driver: ${what} failed`));
    };

  // Baileys' re-upload on 404 is left out (it never triggers in rc14): fetchMedia does it.
  const source: MediaSource = {
    download: async (m, signal) => {
      const options = { signal, ...(ctx.mediaDispatcher ? { dispatcher: ctx.mediaDispatcher } : {}) };
      const buf = await downloadMediaMessage(m, 'buffer', { options: options as RequestInit });
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    },
    reupload: (m) => sock.updateMediaMessage(m),
  };

  const reportVote = async (m: WAMessage, update: NonNullable<ReturnType<typeof pollUpdateOf>>) => {
    const me = { id: sock.user?.id, lid: sock.user?.lid };
    const lookup = ctx.polls ?? (async () => undefined);
    const vote = await decryptVote(m, update, me, lookup, phoneForLid).catch((err) => {
      log.warn({ err, messageId: m.key.id }, 'poll vote not decrypted');
      return undefined;
    });
    if (vote) events.onPollVote(vote);
    // Only votes on polls this account sent (and still keeps) can be read: without the poll's
    // secret the vote is opaque. Logged, not reported as a message.
    else
      log.warn({ pollId: update.pollCreationMessageKey?.id }, 'poll vote for an unknown poll; not reported');
  };

  const upsert = async (messages: WAMessage[], backlog: boolean) => {
    await resolve(messages.flatMap((m) => [m.key.remoteJid, m.key.participant, m.key.participantAlt]));
    for (const m of messages) {
      const vote = pollUpdateOf(m);
      if (vote) {
        if (!m.key.fromMe) await reportVote(m, vote);
        continue;
      }
      const own = normaliseOwnMessage(m, phoneForLid);
      if (own && !ctx.sentIds?.has(own.id)) events.onOwnMessage(own);
      const n = normaliseMessage(m, phoneForLid);
      if (!n) continue;
      if (backlog) n.message.backlog = true;
      if (n.lidMapping) learn(n.lidMapping.lid, n.lidMapping.phone);
      const tooBig = (n.media?.fileLength ?? 0) > ctx.maxMediaBytes;
      if (tooBig)
        log.warn({ messageId: n.message.id, bytes: n.media?.fileLength }, 'media too large; not downloaded');
      const fetched = n.media && !tooBig ? await fetchMedia(m, source, ctx.mediaTimeoutMs) : undefined;
      if (fetched && 'missing' in fetched) {
        // Delivered on time without its file, never held back: the marker says why.
        log.warn({ messageId: n.message.id, reason: fetched.missing }, 'message delivered without its media');
        n.message.mediaMissing = fetched.missing;
      } else if (tooBig)
        n.message.mediaMissing = `the media (${n.media?.fileLength} bytes) is over the size limit`;
      const mimetype = n.media?.mimetype ?? 'application/octet-stream';
      events.onInbound(
        n.message,
        fetched && 'bytes' in fetched ? { bytes: fetched.bytes, mimetype } : undefined,
      );
    }
  };
  // Inbound messages keep their order: one batch at a time, media downloaded before the report.
  let inbound: Promise<void> = Promise.resolve();
  const outcome = (id: string | null | undefined, o: ReturnType<typeof outcomeOfUpdate>) => {
    if (!id || !o) return;
    if (o.status === 'failed') events.onSendFailed(id, o.reason);
    else events.onReceipt(id, o.status);
  };
  // `append` is the offline queue replayed after login (and our own sent messages): dropping it
  // loses everything received while the link was down. A receipt that arrives while Baileys still
  // holds its own sent message (100 ms) is folded into that message's `append`, not an update.
  const onUpsert = ({ messages, type }: { messages: WAMessage[]; type: string }) => {
    if (type !== 'notify' && type !== 'append') return;
    if (type === 'append') {
      guard('own message status', () => {
        for (const m of messages)
          if (m.key.fromMe) outcome(m.key.id, outcomeOfStatus(m.status, m.messageStubParameters));
      })(undefined);
    }
    inbound = inbound
      .then(() => upsert(messages, type === 'append'))
      .catch((err) => log.warn({ err }, 'baileys driver: inbound messages failed'));
  };
  sock.ev.on('messages.upsert', onUpsert);

  sock.ev.on(
    'messages.update',
    guard('message updates', (updates) => {
      for (const u of updates) {
        const change = changeOfUpdate(u, phoneForLid);
        if (change) events.onMessageChange(change);
        else outcome(u.key.id, outcomeOfUpdate(u));
      }
    }),
  );

  sock.ev.on(
    'message-receipt.update',
    guard('receipts', (receipts) => {
      for (const r of receipts) {
        const status = r.key.fromMe ? receiptOfUserReceipt(r.receipt) : undefined;
        if (status && r.key.id) events.onReceipt(r.key.id, status);
      }
    }),
  );

  const contacts = async (list: Parameters<typeof normaliseContacts>[0]) => {
    await resolve(list.flatMap((c) => [c.id, c.lid]));
    const out = normaliseContacts(list, phoneForLid);
    for (const c of out) {
      ctx.contacts.add(c.phone);
      learn(c.lid, c.phone);
    }
    if (out.length) events.onContacts(out);
  };
  sock.ev.on('contacts.upsert', guard('contacts', contacts));
  sock.ev.on('contacts.update', guard('contacts', contacts));

  const group = async (g: GroupMetadata) => {
    ctx.groups.set(g.id, g);
    await resolve(g.participants.flatMap((p) => [p.id, p.lid]));
    events.onGroup(normaliseGroup(g, phoneForLid));
  };
  const refreshGroup = async (id: string | undefined) => {
    if (id) await group(await sock.groupMetadata(id));
  };
  sock.ev.on(
    'groups.upsert',
    guard('groups', async (list) => {
      for (const g of list) await group(g);
    }),
  );
  sock.ev.on(
    'groups.update',
    guard('group update', async (list) => {
      // Full metadata (e.g. from groupFetchAllParticipating) is used as is; partial updates refetch.
      for (const g of list) {
        if (g.id && g.subject !== undefined && Array.isArray(g.participants)) await group(g as GroupMetadata);
        else await refreshGroup(g.id);
      }
    }),
  );
  sock.ev.on(
    'group-participants.update',
    guard('group participants', (u) => refreshGroup(u.id)),
  );

  sock.ev.on(
    'lid-mapping.update',
    guard('LID mapping', (m) => learn(lidOfJid(m.lid), phoneOfJid(m.pn))),
  );

  sock.ev.on(
    'messaging-history.set',
    guard('history', async (h) => {
      for (const m of h.lidPnMappings ?? []) learn(lidOfJid(m.lid), phoneOfJid(m.pn));
      if (h.contacts.length) await contacts(h.contacts);
      if (ctx.history && h.messages.length) reportHistory(h, ctx.history.days);
    }),
  );

  /**
   * Received messages of the history sync, within the days asked for, oldest first. Their media is
   * not downloaded (the CDN copies of old media are mostly gone): each says so in `mediaMissing`.
   */
  const reportHistory = (
    h: { messages: WAMessage[]; syncType?: unknown; progress?: number | null },
    days: number,
  ) => {
    const since = Date.now() - days * 86_400_000;
    const found = h.messages
      .map((m) => normaliseMessage(m, phoneForLid))
      .filter((n): n is NonNullable<typeof n> => !!n && n.message.timestampMs >= since)
      .map((n) =>
        n.media ? { ...n.message, mediaMissing: 'history sync: media not downloaded' } : n.message,
      )
      .sort((a, b) => a.timestampMs - b.timestampMs);
    if (!found.length) return;
    const syncType =
      typeof h.syncType === 'number'
        ? (proto.HistorySync.HistorySyncType[h.syncType] ?? String(h.syncType))
        : 'UNKNOWN';
    events.onHistory(found, { syncType, progress: h.progress ?? null });
  };

  return {
    // Settles once nothing is left to report, including batches that arrived while it waited.
    async drain() {
      for (let seen = inbound; ; seen = inbound) {
        await seen;
        if (seen === inbound) return;
      }
    },
    upsert: onUpsert,
  };
}
