import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { UnauthorizedError } from '#shared/http/errors';

/** The body of a route that takes an API key in the body (`apiKey`) or the `X-Api-Key` header. */
export const apiKeyBody = {
  required: false,
  content: {
    'application/json': { schema: z.object({ apiKey: z.string().min(1).max(200).optional() }) },
  },
};

/** The API key a request presents: the body's `apiKey`, else the header; a 401 when neither. */
export function presentedKey(c: Context, fromBody: string | undefined): string {
  const key =
    (c.req.header('content-type')?.includes('json') ? fromBody : undefined) ?? c.req.header('x-api-key');
  if (!key) throw new UnauthorizedError('apiKey (body) or X-Api-Key (header) is required');
  return key;
}
