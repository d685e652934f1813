import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';

/** Shapes shared by many routes, registered once in the OpenAPI document. */
export const ErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({ code: z.string(), message: z.string() }),
  })
  .openapi('Error');

export const errorResponses = {
  400: { description: 'Invalid input', content: { 'application/json': { schema: ErrorSchema } } },
  401: {
    description: 'Missing or bad credentials',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  403: { description: 'Not allowed', content: { 'application/json': { schema: ErrorSchema } } },
  404: { description: 'Unknown resource', content: { 'application/json': { schema: ErrorSchema } } },
} as const;

/** 429 with `Retry-After`: a cap or throttle (not in `errorResponses`: only some routes have one). */
export const rateLimitedResponse = {
  description: 'Too many at once (RATE_LIMITED); try again after `Retry-After` seconds',
  headers: { 'Retry-After': { schema: { type: 'integer' as const }, description: 'seconds' } },
  content: { 'application/json': { schema: ErrorSchema } },
} as const;

/** A route's security requirements: any one of them lets a request in (`[]`: no credentials). */
export type Security = Array<Record<string, string[]>>;
/** What a route needs unless it says otherwise (shared/http/context.ts). */
export const bearer: Security = [{ bearerAuth: [] }];
/** The header, or `key` in the query (an API key or a token): the live view, the extraction stream, speech synthesis. */
export const bearerOrQueryKey: Security = [...bearer, { queryKey: [] }];

/** An array of strings, or one comma-separated string (both are accepted by the spec). */
export const StringList = z
  .union([z.array(z.string().max(200)).max(500), z.string().max(20_000)])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean));

export function json<T extends z.ZodType>(schema: T, description = 'OK') {
  return { description, content: { 'application/json': { schema } } };
}

/** A success answer: `{ success: true, ...fields }`, the envelope every JSON route answers in. */
export function ok<T extends z.ZodRawShape>(fields: T) {
  return json(z.object({ success: z.literal(true), ...fields }));
}

/**
 * The route maker of one tag: a route it makes is under `tags`, needs a token unless it says
 * otherwise (`security`), and answers the common errors (`errorResponses`) besides its own.
 */
export function routesTagged(...tags: string[]) {
  return <P extends string, R extends Omit<RouteConfig, 'path' | 'tags'> & { path: P }>(config: R) =>
    createRoute({ tags, security: bearer, ...config, responses: { ...config.responses, ...errorResponses } });
}
