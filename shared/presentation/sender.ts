import { bareLid, lookupPhoneOfLid } from '../contacts/lid-cache.ts';
import { lidJid } from '../phone/jid.ts';

/**
 * The sender's digits. A sender known only by a LID is shown by the phone number the network has
 * revealed for it, else as `<lid>@lid` so that nobody mistakes it for a phone number.
 */
export async function resolveSender(
  tenantId: string,
  sessionId: string,
  m: { senderPhone: string | null; senderLid?: string },
): Promise<string | null> {
  if (m.senderPhone) return m.senderPhone;
  if (!m.senderLid) return null;
  return (await lookupPhoneOfLid(tenantId, sessionId, m.senderLid)) ?? lidJid(bareLid(m.senderLid));
}
