import { sentMediaKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/**
 * What the network driver produced when it sent a media message (for Baileys: the encoded message
 * with the upload's url, directPath, mediaKey and hashes). A peer that cannot decrypt asks for a
 * retry, possibly after a host restart; the same message is then sent again from this, without
 * the bytes. Kept for SENT_MEDIA_TTL_S (the item expires through the table TTL).
 */
export const SENT_MEDIA_TTL_S = 14 * 86_400;
/**
 * A sent poll is kept far longer: its secret decrypts the votes, which contacts may cast (or
 * change) long after it was sent.
 */
export const SENT_POLL_TTL_S = 400 * 86_400;

interface SentMediaItem {
  wire: Uint8Array;
}

export async function saveSentMedia(
  tenantId: string,
  sessionId: string,
  messageId: string,
  wire: Uint8Array,
  keepSeconds = SENT_MEDIA_TTL_S,
): Promise<void> {
  await dataTable.put({
    ...sentMediaKey(tenantId, sessionId, messageId),
    type: 'sentMedia',
    wire,
    expiresAt: Math.floor(Date.now() / 1000) + keepSeconds,
  });
}

export async function loadSentMedia(
  tenantId: string,
  sessionId: string,
  messageId: string,
): Promise<Uint8Array | undefined> {
  const item = await dataTable.get<SentMediaItem>(sentMediaKey(tenantId, sessionId, messageId));
  return item?.wire ? new Uint8Array(item.wire) : undefined;
}
