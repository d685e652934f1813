import { createHash } from 'node:crypto';
import { sessionStatusOf } from '../presentation/session-status.ts';
import type { Session } from '../sessions/session.ts';
import { feedClock } from '../store/keys.ts';
import { publishFeedEvent } from './feed-event.ts';

/**
 * A change of the network's restriction on new chats (set, changed or lifted) joins the tenant
 * stream as a `session.status` event, its data the webhook's payload (docs/events.md): a console
 * watching the stream learns of it as a webhook receiver does. Once per change: the event id
 * derives from the session, the restriction and the change's time, so a repeat writes nothing.
 */
export async function publishRestrictionChange(s: Session): Promise<void> {
  const r = s.restriction;
  const state = r ? `${r.reason}|${r.until ?? ''}|${r.capped ?? ''}` : 'none';
  const change = `${s.sessionId}:${state}:${s.stateAt}`;
  const eventId = `rst_${createHash('sha256').update(`${s.tenantId}\0${change}`).digest('hex').slice(0, 24)}`;
  const payload = sessionStatusOf(s);
  await publishFeedEvent(s.tenantId, s.sessionId, eventId, { ...payload }, feedClock());
}
