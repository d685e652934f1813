/**
 * A session key names where a chatbot setting (rule, brain, prompt, switch) applies: a phone number
 * (digits), a session id, a mobid, a tenant profile name (`clinic` | `appliances` | `ecommerce` |
 * `salon`) or `global`.
 */
export type SessionKey = string;

export const GLOBAL_KEY = 'global';
export const PROFILE_NAMES = ['clinic', 'appliances', 'ecommerce', 'salon'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/**
 * The keys that apply to one session, most specific first: mobile, sessionId, mobid, tenant profile,
 * then 'global'. Empty and repeated values are left out, so the order is also the precedence.
 */
export function sessionKeysOf(
  s: { sessionId: string; mobid?: string; mobile?: string },
  profile?: string,
): SessionKey[] {
  const keys: SessionKey[] = [];
  for (const k of [s.mobile, s.sessionId, s.mobid, profile, GLOBAL_KEY]) {
    if (k && !keys.includes(k)) keys.push(k);
  }
  return keys;
}
