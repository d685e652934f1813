import { ValidationError } from './errors.ts';

/** What a secret part of a URL is shown as. */
export const URL_MASK = '********';

/** Query parameters that carry credentials by name (`?password=`, `?token=`, `?api_key=`, `?sig=` …). */
const SECRET_PARAM = /pass|pwd|secret|token|key|auth|sig|credential/i;

/**
 * A URL as answered to its owner: the password of its user info and the values of secret-looking
 * query parameters masked. A webhook URL's `?token=` and a connection string's `?password=` are as
 * secret as a password in the user info.
 */
export function maskUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return URL_MASK; // stored URLs were parsed when saved; show nothing of one that is not
  }
  if (u.password) u.password = URL_MASK;
  for (const name of new Set(u.searchParams.keys()))
    if (SECRET_PARAM.test(name)) u.searchParams.set(name, URL_MASK);
  return u.toString();
}

const isMasked = (v: string) => v === URL_MASK || safeDecode(v) === URL_MASK;
const safeDecode = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

/**
 * Where a URL sends what it holds: all of it but its secrets (scheme, user, host, port, path and every
 * other query parameter). A driver may take its destination from the query too (libpq's `?host=`),
 * so a masked secret is kept only when nothing but the secrets is as it was.
 */
function destination(u: URL, masked: readonly string[]): string {
  const d = new URL(u.toString());
  d.password = '';
  for (const k of masked) d.searchParams.delete(k);
  d.searchParams.sort();
  return d.toString();
}

/**
 * A URL sent back as it was shown: each masked part takes the stored URL's value, but only when the
 * URL still points where the stored one did. A masked secret with anything else changed (host, port,
 * user, path, another query parameter) is refused: keeping it could send the stored secret to a
 * destination the caller chose.
 */
export function unmaskUrl(sent: string, stored: string | undefined, field: string): string {
  const u = new URL(sent);
  const masked = [...new Set(u.searchParams.keys())].filter((k) => u.searchParams.getAll(k).some(isMasked));
  const maskedPassword = isMasked(u.password);
  if (!maskedPassword && !masked.length) return sent;
  const old = stored ? new URL(stored) : undefined;
  if (!old || destination(old, masked) !== destination(u, masked))
    throw new ValidationError(
      `${field}: holds a masked secret (${URL_MASK}) but points somewhere new; send the secret itself`,
      field,
    );
  if (maskedPassword) u.password = old.password;
  // In place, so the query keeps its order: the n-th masked value of a name takes its n-th stored value.
  const left = new Map(masked.map((k) => [k, old.searchParams.getAll(k)]));
  const params = [...u.searchParams].map(([k, v]): [string, string] => {
    if (!isMasked(v)) return [k, v];
    const kept = left.get(k)?.shift();
    if (kept === undefined) throw new ValidationError(`${field}: ${k} is masked but was never set`, field);
    return [k, kept];
  });
  u.search = new URLSearchParams(params).toString();
  return u.toString();
}
