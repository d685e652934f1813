import { linkTo } from '../links/links.ts';

/**
 * A URL receivers can fetch the stored media from: the message's own URL, else a link of ours
 * (`/links/{token}`, 7 days, revocable; shared/links/links.ts).
 */
export async function mediaLink(
  tenantId: string,
  m: { mediaUrl?: string; mediaKey?: string },
): Promise<string | null> {
  if (m.mediaUrl) return m.mediaUrl;
  if (!m.mediaKey) return null;
  return linkTo(tenantId, m.mediaKey, 'media');
}
