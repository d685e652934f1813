import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '#shared/http/context';
import { errorBody } from '#shared/http/errors';
import { jsonTextProblem } from '#shared/http/json-text';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';

/**
 * Reading a `/_sim/*` request's body: bounded by the route's limit, checked as every JSON body is,
 * and parsed by the route's schema into its data or its 400 answer.
 */

/** Bodies of the test controls (`/_sim/inbound` …): small JSON. */
export const SIM_CONTROL_BODY_LIMIT = 1024 * 1024;
/** Bodies of the device protocol: a send carries its media in base64 (64 MiB of media is ~86 MiB). */
export const SIM_DEVICE_BODY_LIMIT = 1.5 * MEDIA_MAX_BYTES;

export const limitOf = (path: string) =>
  path.startsWith('/_sim/device/') ? SIM_DEVICE_BODY_LIMIT : SIM_CONTROL_BODY_LIMIT;

export class SimBodyTooLargeError extends Error {}

/**
 * The JSON body, or undefined when there is none that parses or it fails the checks every JSON
 * body gets (nesting, Unicode, NUL: json-text.ts). Read up to the route's limit, then refused. Under
 * `npm start`'s Node server it is read from the Node request itself: building a web Request around
 * it cost the service about as much CPU as the rest of the route, and `/_sim/inbound` carries every
 * message of the inbound benchmarks.
 */
export async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  const limit = limitOf(c.req.path);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  let text: string;
  if (!incoming?.readable) {
    text = await c.req.text().catch(() => '');
    if (Buffer.byteLength(text) > limit) throw new SimBodyTooLargeError();
  } else {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of incoming) {
        size += (chunk as Buffer).length;
        if (size > limit) throw new SimBodyTooLargeError();
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof SimBodyTooLargeError) throw err;
      return undefined;
    }
    text = Buffer.concat(chunks).toString('utf8');
  }
  if (jsonTextProblem(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body's fields, for the routes that read one or two of them loosely. */
export const fieldsOf = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' ? (body as Record<string, unknown>) : {};

export function bad(message: string) {
  return errorBody('VALIDATION_FAILED', message);
}

/** The body as `schema` parses it, or the 400 answer that names its first problem. */
export async function parsedBody<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; answer: Response }> {
  const parsed = schema.safeParse(await jsonBody(c));
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, answer: c.json(bad(parsed.error.issues[0]?.message ?? 'invalid body'), 400) };
}
