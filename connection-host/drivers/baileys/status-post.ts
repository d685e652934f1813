import { generateMessageIDV2 } from '@whiskeysockets/baileys';
import { STATUS_JID, userJid } from '#shared/phone/jid';
import type { DriverLink } from '../driver.ts';
import { phoneOfJid } from './jids.ts';
import { serverAck } from './network-acks.ts';
import type { LinkContext } from './options.ts';

/** At most this many contacts see a status story (own number and the request's list first). */
export const STATUS_AUDIENCE_MAX = 5000;

/**
 * `DriverLink.postStatus`: a story to the account's own number, the request's list, the contacts
 * seen on this link and the stored ones, in that order; resolves on the network's ack.
 */
export async function postStatus(
  link: LinkContext & { contacts: { values(): Iterable<string> } },
  story: Parameters<DriverLink['postStatus']>[0],
): Promise<void> {
  const { sock, opts } = link;
  const stored = opts.statusAudience ? await opts.statusAudience(link.sessionId) : [];
  const own = sock.user?.id ? [phoneOfJid(sock.user.id)] : [];
  const audience = [...new Set([...own, ...(story.audience ?? []), ...link.contacts.values(), ...stored])]
    .filter((p): p is string => !!p)
    .slice(0, STATUS_AUDIENCE_MAX);
  // Media comes fetched by the host through the private-address guard; never hand Baileys a URL.
  if (story.type !== 'text' && !story.media) throw new Error(`a ${story.type} story needs its media`);
  const bytes = story.media ? Buffer.from(story.media.bytes) : undefined;
  const content =
    story.type === 'text' || !bytes
      ? { text: story.content }
      : story.type === 'image'
        ? { image: bytes, mimetype: story.media?.mimetype }
        : { video: bytes, mimetype: story.media?.mimetype };
  // The network answers every message with an ack; one with an error is a refused story.
  const messageId = generateMessageIDV2(sock.user?.id);
  const acked = serverAck(sock, messageId, opts.statusAckTimeoutMs ?? 30_000, 'status story');
  try {
    await sock.sendMessage(STATUS_JID, content, {
      messageId,
      statusJidList: audience.map((p) => userJid(p)),
      ...(story.backgroundColor ? { backgroundColor: story.backgroundColor } : {}),
    });
  } catch (err) {
    acked.cancel();
    throw err;
  }
  await acked.result;
}
