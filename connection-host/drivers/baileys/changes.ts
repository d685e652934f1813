import {
  extractMessageContent,
  type proto,
  WAMessageStubType,
  type WAMessageUpdate,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { MessageChange } from '../driver.ts';
import { normaliseMessage, type PhoneForLid } from './normalise.ts';
import { toJid } from './outbound.ts';

/** The key of a message the account sent, for an edit or a revoke. */
const ownKey = (chatId: string, id: string): proto.IMessageKey => ({
  remoteJid: toJid(chatId),
  id,
  fromMe: true,
});

/** Replaces the text (or a media message's caption) of a message the account sent. */
export async function editMessage(
  sock: Pick<WASocket, 'sendMessage'>,
  chatId: string,
  id: string,
  text: string,
) {
  await sock.sendMessage(toJid(chatId), { text, edit: ownKey(chatId, id) });
}

/** Deletes a message the account sent for everyone in the chat (the network's revoke). */
export async function revokeMessage(sock: Pick<WASocket, 'sendMessage'>, chatId: string, id: string) {
  await sock.sendMessage(toJid(chatId), { delete: ownKey(chatId, id) });
}

/**
 * A contact's revoke or edit, as Baileys reports it (a `messages.update` of the changed message:
 * a REVOKE stub without content, or an `editedMessage`) → our change, or undefined for any other
 * update. The chat is named by the one rule of normalise.ts, applied to the update's key. Changes
 * made from the account's own phone are not reported yet.
 */
export function changeOfUpdate(
  u: WAMessageUpdate,
  phoneForLid: PhoneForLid = () => undefined,
): MessageChange | undefined {
  const id = u.key.id;
  if (!id || u.key.fromMe) return undefined;
  const revoked = u.update.messageStubType === WAMessageStubType.REVOKE && u.update.message === null;
  const edited = extractMessageContent(u.update.message?.editedMessage?.message);
  if (!revoked && !edited) return undefined;
  const chat = normaliseMessage({ key: u.key, message: { conversation: '' } }, phoneForLid);
  if (!chat) return undefined;
  if (revoked) return { messageId: id, chatId: chat.message.chatId, change: 'deleted', fromMe: false };
  const text =
    edited?.conversation ??
    edited?.extendedTextMessage?.text ??
    edited?.imageMessage?.caption ??
    edited?.videoMessage?.caption ??
    edited?.documentMessage?.caption ??
    '';
  return { messageId: id, chatId: chat.message.chatId, change: 'edited', text, fromMe: false };
}
