import { extractMessageContent, proto, type WAMessage, type WASocket } from '@whiskeysockets/baileys';
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

const { REVOKE, MESSAGE_EDIT } = proto.Message.ProtocolMessage.Type;

/**
 * A contact's revoke or edit (a protocol message naming the message it changes) → our change, or
 * undefined for anything else. The chat is named by the one rule of normalise.ts, applied to the
 * protocol message's own key. Changes made from the account's own phone are not reported yet.
 */
export function changeOf(
  m: WAMessage,
  phoneForLid: PhoneForLid = () => undefined,
): MessageChange | undefined {
  const pm = extractMessageContent(m.message)?.protocolMessage;
  const target = pm?.key?.id;
  if (!pm || !target || (pm.type !== REVOKE && pm.type !== MESSAGE_EDIT)) return undefined;
  const chat = normaliseMessage({ ...m, message: { conversation: '' } }, phoneForLid);
  if (!chat) return undefined;
  if (pm.type === REVOKE)
    return { messageId: target, chatId: chat.message.chatId, change: 'deleted', fromMe: false };
  const edited = extractMessageContent(pm.editedMessage);
  const text =
    edited?.conversation ??
    edited?.extendedTextMessage?.text ??
    edited?.imageMessage?.caption ??
    edited?.videoMessage?.caption ??
    edited?.documentMessage?.caption ??
    '';
  return { messageId: target, chatId: chat.message.chatId, change: 'edited', text, fromMe: false };
}
