import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { ConflictError, IdempotencyKeyReusedError, ValidationError } from '#shared/http/errors';
import { logger } from '#shared/log/logger';
import { claimKey, completeKey, releaseKey } from './idempotency-store.ts';

const HEADER = 'idempotency-key';
/** How long a retry waits for the first request with its key to answer before giving up with a 409. */
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 100;

export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

/** The header every send route declares (so it is in /openapi.json and checked before the handler). */
export const IdempotencyHeaders = z.object({
  [HEADER]: IdempotencyKey.optional().openapi({
    description:
      'A key of your choice (1–255 printable ASCII characters, e.g. a UUID). The same key with the same body within 24 hours answers the first answer again and sends nothing; with another body, 422 `IDEMPOTENCY_KEY_REUSED`.',
    param: { name: HEADER, in: 'header' },
  }),
});

/** JSON with object keys sorted, so the same body written in another key order is the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Runs a send at most once per `Idempotency-Key` (when the request has one): the first request with a
 * key claims it (one conditional put, so racing retries cannot both win) and stores its answer for
 * 24 hours; a retry with the same path and `request` gets that answer back, marked
 * `Idempotent-Replayed: true`, and sends nothing. A retry that arrives while the first is still
 * running waits for its answer. A failed send frees the key: nothing went out, so a retry may send.
 *
 * `request` is what identifies the request's content: the validated body, or for an upload its
 * fields and the file's digest.
 */
export async function idempotent<T>(c: Context<AppEnv>, request: unknown, run: () => Promise<T>): Promise<T> {
  const raw = c.req.header(HEADER);
  if (raw === undefined) return run();
  const parsed = IdempotencyKey.safeParse(raw);
  if (!parsed.success)
    throw new ValidationError(`Idempotency-Key: ${parsed.error.issues[0]?.message}`, 'Idempotency-Key');
  const { answer, replayed } = await runOnce(
    { tenantId: c.get('auth').tenant, key: parsed.data, scope: `${c.req.method} ${c.req.path}`, request },
    run,
    c.get('requestId'),
  );
  if (replayed) c.header('Idempotent-Replayed', 'true');
  return answer;
}

/** One idempotent operation: the tenant's key, where it was made (method and path, or an MCP tool) and its content. */
export interface OnceRequest {
  tenantId: string;
  key: string;
  scope: string;
  request: unknown;
}

/**
 * The core of `idempotent`, for callers without an HTTP request of their own (the MCP tools): runs
 * `run` at most once per tenant and key, and answers its first answer again to a retry with the
 * same scope and request (`replayed`). Keys are the tenant's, shared by every path: a key reused
 * with other content, anywhere, is refused.
 */
export async function runOnce<T>(
  { tenantId: tenant, key, scope, request }: OnceRequest,
  run: () => Promise<T>,
  requestId: string,
): Promise<{ answer: T; replayed: boolean }> {
  const fingerprint = createHash('sha256')
    .update(`${scope}\n${canonical(request)}`)
    .digest('hex');

  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await claimKey(tenant, key, fingerprint, Date.now());
    if (claim.kind === 'reused') throw new IdempotencyKeyReusedError();
    if (claim.kind === 'done') return { answer: claim.response as T, replayed: true };
    if (claim.kind === 'claimed') break;
    if (Date.now() > deadline) {
      throw new ConflictError(
        'a request with this Idempotency-Key is still being answered; retry it in a few seconds',
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }

  let answer: T;
  try {
    answer = await run();
  } catch (err) {
    await releaseKey(tenant, key, fingerprint).catch(() => {});
    throw err;
  }
  // The message is on its way: a failure to record the answer must not turn it into an error (a
  // retry would then wait, and after a minute send again: logged, as that is a duplicate risk).
  await completeKey(tenant, key, fingerprint, answer).catch((err) =>
    logger.warn({ err, requestId }, 'idempotency answer not stored'),
  );
  return { answer, replayed: false };
}

/** Marks an answer that is not kept (an error status): the key is freed and the answer goes out as is. */
class NotKept extends Error {}

/**
 * `idempotent` as middleware, for a JSON route whose handler is left as it is (the Cloud API send):
 * the request is the JSON body, and the first 2xx answer (status and body) is what a retry gets.
 * Mount it after authentication.
 */
export const idempotentJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'POST' || c.req.header(HEADER) === undefined) return next();
  const body: unknown = await c.req.json().catch(() => undefined);
  let ran = false;
  try {
    const first = await idempotent(c, body, async () => {
      ran = true;
      await next();
      if (c.error) throw c.error;
      if (!c.res.ok) throw new NotKept();
      return { status: c.res.status, body: (await c.res.clone().json()) as unknown };
    });
    if (!ran) c.res = c.json(first.body as object, first.status as 200);
  } catch (err) {
    if (!(err instanceof NotKept)) throw err;
  }
};
