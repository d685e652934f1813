import type { proto, WASocket } from '@whiskeysockets/baileys';
import type { ReadTarget } from '#shared/commands/types';
import { isGroupJid, lidJid, userJid } from '#shared/phone/jid';
import { toJid } from './outbound.ts';

export interface ReadReceipts {
  /** Keys for `readMessages`, which sends `read` (or `read-self` under the account's privacy setting). */
  keys: proto.IMessageKey[];
  /** Voice notes, grouped by sender: one `played` receipt each. */
  played: Array<{ jid: string; participant?: string; ids: string[] }>;
}

/** Received messages of one chat → the receipts that mark them read, and voice notes played. Pure. */
export function readReceipts(chatId: string, messages: ReadTarget[]): ReadReceipts {
  const jid = toJid(chatId);
  const group = isGroupJid(jid);
  // In a group the receipt names the sender; in a direct chat the chat is the sender.
  const participantOf = (m: ReadTarget) => {
    if (!group) return undefined;
    if (m.senderPhone) return userJid(m.senderPhone);
    return m.senderLid ? lidJid(m.senderLid) : undefined;
  };
  const keys = messages.map((m) => {
    const participant = participantOf(m);
    return { remoteJid: jid, id: m.id, fromMe: false, ...(participant ? { participant } : {}) };
  });
  const played = new Map<string, { jid: string; participant?: string; ids: string[] }>();
  for (const m of messages) {
    if (!m.voice) continue;
    const participant = participantOf(m);
    const entry = played.get(participant ?? '') ?? { jid, ...(participant ? { participant } : {}), ids: [] };
    entry.ids.push(m.id);
    played.set(participant ?? '', entry);
  }
  return { keys, played: [...played.values()] };
}

/** Sends the read receipts, then the `played` ones for voice notes. */
export async function markRead(
  sock: Pick<WASocket, 'readMessages' | 'sendReceipt'>,
  chatId: string,
  messages: ReadTarget[],
): Promise<void> {
  const r = readReceipts(chatId, messages);
  await sock.readMessages(r.keys);
  for (const p of r.played) await sock.sendReceipt(p.jid, p.participant, p.ids, 'played');
}
