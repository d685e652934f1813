import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { type BinaryNode, proto, S_WHATSAPP_NET } from '@whiskeysockets/baileys';
import { newMessageId, now } from './stanzas.ts';
import type { Companion, FakeUser, SendOptions } from './users.ts';

/**
 * The stanzas the network hands a companion on behalf of simulated phones and of itself (messages,
 * receipts, calls, notifications, the initial history sync), built in one place so phones.ts reads
 * as what a phone does rather than how the wire spells it.
 */

/** How a message names its sender: by LID (with `sender_pn`) unless sent with phone addressing. */
export function senderAttrs(from: FakeUser, opts: SendOptions): Record<string, string> {
  return opts.addressing === 'pn'
    ? { from: from.pnJid(), sender_lid: from.lidJid() }
    : { from: from.lidJid(), sender_pn: from.pnJid(), addressing_mode: 'lid' };
}

/** A one-to-one message carrying one encrypted copy; `attrs` as the network orders them. */
export function messageStanza(
  attrs: Record<string, string>,
  enc: { type: string; ciphertext: Uint8Array },
): BinaryNode {
  return {
    tag: 'message',
    attrs,
    content: [{ tag: 'enc', attrs: { v: '2', type: enc.type }, content: enc.ciphertext }],
  };
}

/** A delivery (or read/played) receipt for `ids`: the first in the attrs, the rest as a list. */
export function receiptStanza(
  fromJid: string,
  ids: [string, ...string[]],
  type?: 'read' | 'played',
): BinaryNode {
  const [first, ...rest] = ids;
  return {
    tag: 'receipt',
    attrs: { from: fromJid, id: first, t: now(), ...(type ? { type } : {}) },
    ...(rest.length
      ? { content: [{ tag: 'list', attrs: {}, content: rest.map((id) => ({ tag: 'item', attrs: { id } })) }] }
      : {}),
  };
}

/** A retry receipt: the phone could not decrypt `id` and asks for it again. */
export function retryReceiptStanza(fromJid: string, id: string, registrationId: number): BinaryNode {
  const t = now();
  const regId = Buffer.alloc(4);
  regId.writeUInt32BE(registrationId);
  return {
    tag: 'receipt',
    attrs: { from: fromJid, id, t, type: 'retry' },
    content: [
      { tag: 'retry', attrs: { count: '1', id, t, v: '1' } },
      { tag: 'registration', attrs: {}, content: regId },
    ],
  };
}

/** A bytes-only `enc` that is no Signal message of any session (`sendUndecryptable`). */
export function garbageEnc(): { type: string; ciphertext: Uint8Array } {
  return { type: 'msg', ciphertext: randomBytes(64) };
}

/** One step of a call (`offer`, `terminate`) from `from`, as the network wraps it. */
export function callStanza(from: FakeUser, step: BinaryNode): BinaryNode {
  return {
    tag: 'call',
    attrs: { from: from.lidJid(), id: newMessageId(), t: now(), notify: from.name },
    content: [step],
  };
}

/** A server notification of type `mex` (GraphQL push) with `data` as its JSON payload. */
export function mexNotification(opName: string, data: Record<string, unknown>): BinaryNode {
  return {
    tag: 'notification',
    attrs: { from: S_WHATSAPP_NET, type: 'mex', id: newMessageId(), t: now() },
    content: [{ tag: 'update', attrs: { op_name: opName }, content: Buffer.from(JSON.stringify({ data })) }],
  };
}

/** Offline-done: the end of a login's offline replay. */
export function offlineDoneStanza(count: number): BinaryNode {
  return {
    tag: 'ib',
    attrs: { from: S_WHATSAPP_NET },
    content: [{ tag: 'offline', attrs: { count: String(count) } }],
  };
}

/**
 * The phone's initial history sync for a new device, inline (no media download): the account's
 * chats, one conversation per contact, and the LID of every other user in `others`.
 */
export function historySyncMessage(c: Companion, others: FakeUser[]): proto.IMessage {
  const syncType = proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP;
  const byContact = new Map<FakeUser, typeof c.user.history>();
  for (const h of c.user.history) byContact.set(h.from, [...(byContact.get(h.from) ?? []), h]);
  const conversations = [...byContact].map(([from, items]) => ({
    id: from.pnJid(),
    lidJid: from.lidJid(),
    name: from.name,
    messages: items.map((h) => ({
      message: {
        key: { remoteJid: from.pnJid(), fromMe: false, id: h.id ?? newMessageId() },
        message: { conversation: h.text },
        messageTimestamp: Math.floor(h.at.getTime() / 1000),
        pushName: from.name,
      },
    })),
  }));
  const history = proto.HistorySync.encode({
    syncType,
    conversations,
    phoneNumberToLidMappings: others.map((u) => ({ pnJid: u.pnJid(), lidJid: u.lidJid() })),
  }).finish();
  return {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
      historySyncNotification: { syncType, initialHistBootstrapInlinePayload: deflateSync(history) },
    },
  };
}
