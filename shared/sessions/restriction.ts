import { z } from 'zod';

/**
 * A limit the network put on the account (2026): it may no longer start new chats, for a while or
 * until a cap resets. Existing chats keep working. Reported on `session.status` (docs/sessions.md,
 * "Restrictions"); sends to new chats are refused while it holds (NEW_CHATS_RESTRICTED).
 * - `restricted_new_chats`: the network answered a message to a new chat with error 463.
 * - `reachout_timelock`: the reach-out time-lock; `until` is when the network says it ends.
 * - `message_capping`: the new-chat message cap; `cap` messages per cycle, `used` so far, `until`
 *   the end of the cycle. Only `capped: true` restricts; the warnings before it do not.
 */
export const Restriction = z.object({
  reason: z.enum(['restricted_new_chats', 'reachout_timelock', 'message_capping']),
  /** When the restriction ends, epoch ms, when the network said. */
  until: z.number().optional(),
  cap: z.number().int().optional(),
  used: z.number().int().optional(),
  /** For `message_capping`: the cap is reached (a warning otherwise). */
  capped: z.boolean().optional(),
  /** The network's own words (enforcement type, capping status), shown as given. */
  detail: z.string().optional(),
});
export type Restriction = z.infer<typeof Restriction>;

/** How long a 463 (which carries no end time) holds new chats closed before a send may try again. */
export const RESTRICTED_NEW_CHATS_HOLD_MS = 60 * 60_000;

/** Whether the restriction refuses new chats at `now`: a warning, or one whose end has passed, does not. */
export function blocksNewChats(r: Restriction | undefined | null, now: number): boolean {
  if (!r) return false;
  if (r.until !== undefined && r.until <= now) return false;
  if (r.reason === 'message_capping') return r.capped === true;
  return true;
}

/** The refusal text of a send to a new chat while `r` holds; starts with the documented code. */
export function newChatsRefusal(r: Restriction): string {
  const until = r.until ? ` until ${new Date(r.until).toISOString()}` : '';
  const why =
    r.reason === 'reachout_timelock'
      ? `the network's reach-out time-lock holds${until}`
      : r.reason === 'message_capping'
        ? `the account reached its cap of ${r.cap ?? '?'} messages to new chats${until}`
        : `the network restricts this account from starting new chats (error 463)${until}`;
  return `NEW_CHATS_RESTRICTED: ${why}; existing chats still work`;
}
