import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json, ok, rateLimitedResponse, type Security } from '#shared/http/schemas';
import { apiKeyBody } from './presented-key.ts';

/** The key in its header, or none: it may come in the body instead. */
const keyInHeaderOrBody: Security = [{ apiKeyHeader: [] }, {}];

export const tokenRoute = createRoute({
  method: 'post',
  path: '/token',
  summary: 'Exchange an API key (body `apiKey` or header `X-Api-Key`) for a JWT',
  security: keyInHeaderOrBody,
  description:
    'Failed attempts are limited per client address and per key prefix (docs/api.md, "Revocation and throttling"); past the limit every attempt answers 429 with `Retry-After` until the window ends.',
  tags: ['auth'],
  request: {
    body: apiKeyBody,
  },
  responses: {
    200: ok({ token: z.string(), expiresIn: z.number().int() }),
    ...errorResponses,
    429: rateLimitedResponse,
  },
});

const PortalBody = z.object({ success: z.literal(true), portal_id: z.string() });

export const portalRoute = createRoute({
  method: 'get',
  path: '/',
  summary: "The caller's tenant portal id",
  tags: ['auth'],
  security: bearer,
  responses: { 200: json(PortalBody), ...errorResponses },
});

export const portalRotateRoute = createRoute({
  method: 'post',
  path: '/rotate',
  summary: "Give the caller's tenant a new portal id; the old one answers 404 from now on",
  tags: ['auth'],
  security: bearer,
  responses: { 200: json(PortalBody), ...errorResponses },
});
