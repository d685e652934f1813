import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';

/**
 * A poll vote as a voter's phone encrypts it (the network's scheme, written here from the protocol,
 * not taken from Baileys): the chosen options by SHA-256, in a PollVoteMessage sealed with
 * AES-256-GCM under a key derived from the poll's secret, its id and both parties' ids.
 */
export function encryptPollVote(p: {
  pollId: string;
  /** The poll creator's and the voter's ids (user JIDs, no device), as the voter's client names them. */
  creatorJid: string;
  voterJid: string;
  /** The poll's `messageContextInfo.messageSecret`. */
  secret: Uint8Array;
  options: string[];
}): proto.Message.IPollEncValue {
  const plain = proto.Message.PollVoteMessage.encode({
    selectedOptions: p.options.map((o) => createHash('sha256').update(o).digest()),
  }).finish();
  const sign = Buffer.concat([
    Buffer.from(p.pollId),
    Buffer.from(p.creatorJid),
    Buffer.from(p.voterJid),
    Buffer.from('Poll Vote'),
    Buffer.from([1]),
  ]);
  const key0 = createHmac('sha256', Buffer.alloc(32)).update(p.secret).digest();
  const key = createHmac('sha256', key0).update(sign).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${p.pollId}\u0000${p.voterJid}`));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return { encPayload: sealed, encIv: iv };
}
