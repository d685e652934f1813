import { z } from '@hono/zod-openapi';
import { BRAIN_MAX_BYTES, Brain, PROMPT_MAX_BYTES } from '#shared/chatbot/brain-schema';
import { isProfileName, tenantProfile } from '#shared/chatbot/knowledge';
import { GLOBAL_KEY, sessionKeysOf } from '#shared/chatbot/session-keys';
import { ServiceError, ValidationError } from '#shared/http/errors';
import { guardedFetch, TargetNotAllowedError } from '#shared/outbound/guard';
import { findSession } from '#shared/sessions/repository';

/** A session key as a request gives it: a phone number, session id, mobid, profile name or `global`. */
export const SessionKeyInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^#\s]+$/, 'a session key has no `#` and no spaces')
  .openapi({ description: 'phone number, session id, mobid, profile name or `global`', example: 'global' });

export const RemoteUrl = z
  .string()
  .trim()
  .max(2048)
  .url('must be a URL')
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL');

export const PromptText = z
  .string()
  .min(1)
  .refine((v) => Buffer.byteLength(v) <= PROMPT_MAX_BYTES, `at most ${PROMPT_MAX_BYTES} bytes`);

export const REMOTE_TIMEOUT_MS = 10_000;

/**
 * The keys whose brain or prompt applies to `sessionKey`, most specific first. A key that names one
 * of the tenant's sessions (id, mobid or number) expands to that session's full precedence (mobile,
 * session id, mobid, profile, global); any other key is looked up as it is, then the profile, then
 * 'global'.
 */
export async function keysFor(tenantId: string, sessionKey: string, profile?: string): Promise<string[]> {
  const prof = profile ?? (await tenantProfile(tenantId));
  if (sessionKey === GLOBAL_KEY) return [GLOBAL_KEY];
  if (isProfileName(sessionKey)) return [sessionKey, GLOBAL_KEY];
  const s = await findSession(tenantId, sessionKey);
  const keys = s
    ? sessionKeysOf({ sessionId: s.sessionId, mobid: s.mobid, mobile: s.mobile_number }, prof)
    : sessionKeysOf({ sessionId: sessionKey }, prof);
  // The key asked for may be a spelling of the number (`+91 …`) that is stored as given.
  return keys.includes(sessionKey) ? keys : [sessionKey, ...keys];
}

/** Reads a user's URL through the guarded fetch; every way it can fail is a 400 naming `field`. */
export async function fetchRemote(
  url: string,
  field: string,
  maxBytes: number,
): Promise<{ text: string; type: string }> {
  let res: Response;
  let text: string;
  try {
    res = await guardedFetch(
      url,
      { headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.5' } },
      {
        maxBytes,
        timeoutMs: REMOTE_TIMEOUT_MS,
      },
    );
    text = await res.text();
  } catch (err) {
    if (err instanceof TargetNotAllowedError) throw err;
    const why = err instanceof ServiceError ? err.message : `could not be read (${(err as Error).message})`;
    throw new ValidationError(`${field}: ${why}`, field);
  }
  if (!res.ok) throw new ValidationError(`${field}: the URL answered HTTP ${res.status}`, field);
  return { text, type: res.headers.get('content-type') ?? '' };
}

/** A remote brain: JSON, at most 1 MiB, valid against the Brain schema. */
export async function fetchRemoteBrain(url: string, field = 'brainUrl'): Promise<Brain> {
  const { text } = await fetchRemote(url, field, BRAIN_MAX_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError(`${field}: the URL did not answer JSON`, field);
  }
  const parsed = Brain.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(
      `${field}: the answer is not a valid brain: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
      field,
    );
  }
  return parsed.data;
}

/** A remote prompt: plain text, or JSON `"…"` / `{ "prompt": "…" }`; at most 32 KiB. */
export async function fetchRemotePrompt(url: string, field = 'promptUrl'): Promise<string> {
  const { text, type } = await fetchRemote(url, field, PROMPT_MAX_BYTES);
  let prompt = text;
  if (/json/i.test(type)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ValidationError(`${field}: the URL answered application/json that is not JSON`, field);
    }
    const p = typeof value === 'string' ? value : (value as { prompt?: unknown } | null)?.prompt;
    if (typeof p !== 'string')
      throw new ValidationError(`${field}: a JSON answer must be a string or { "prompt": "…" }`, field);
    prompt = p;
  }
  if (!prompt.trim()) throw new ValidationError(`${field}: the URL answered an empty prompt`, field);
  return prompt;
}

/** Exactly one of two body fields. */
export function oneOf<T extends Record<string, unknown>>(a: keyof T & string, b: keyof T & string) {
  return (v: T, ctx: z.RefinementCtx) => {
    const n = Number(v[a] !== undefined) + Number(v[b] !== undefined);
    if (n !== 1) ctx.addIssue({ code: 'custom', path: [a], message: `give either ${a} or ${b}` });
  };
}

export const DocumentMetaSchema = {
  source: z.enum(['direct', 'remote']),
  version: z.string().openapi({ description: 'content hash; changes exactly when the content does' }),
  bytes: z.number().int(),
  updatedAt: z.string(),
};
