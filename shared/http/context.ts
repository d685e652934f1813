import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { TokenClaims } from '../auth/claims.ts';
import { ServiceError, ValidationError } from './errors.ts';
import { jsonTextProblem } from './json-text.ts';
import { bearer } from './schemas.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    auth: TokenClaims;
  };
}

const essence = (contentType: string) => {
  const [type = ''] = contentType.split(';');
  return type.trim().toLowerCase();
};
const accepts = (declared: string, given: string) =>
  declared === 'application/json' ? given === declared || given.endsWith('+json') : given === declared;

/**
 * Bodies are parsed in one place: the route's declared media types. A body of another type, or none
 * where one is required (the default unless the route says `required: false`), is a 415 that names
 * what the route takes, before any validator or handler sees it.
 */
function bodyGate(route: RouteConfig): MiddlewareHandler<AppEnv>[] {
  const body = route.request?.body;
  const types = Object.keys(body?.content ?? {});
  if (!body || types.length === 0) return [];
  const takes = `this route takes ${types.join(' or ')}`;
  return [
    async (c, next) => {
      const given = c.req.header('content-type');
      if (!given) {
        const empty = (c.req.header('content-length') ?? '0') === '0' && !c.req.header('transfer-encoding');
        if (body.required === false && empty) return next();
        throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `${takes}; the request has no Content-Type`);
      }
      const type = essence(given);
      if (!types.some((t) => accepts(t, type)))
        throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `${takes}, not ${type}`);
      return next();
    },
  ];
}

/**
 * A JSON body is read here and checked (nesting depth, valid Unicode, no NUL: json-text.ts) before
 * it is parsed; the validator then parses the text Hono keeps. After the route's own middleware, so
 * a caller without credentials gets its 401 before its body is read.
 */
function jsonGuard(route: RouteConfig): MiddlewareHandler<AppEnv>[] {
  if (!route.request?.body?.content?.['application/json']) return [];
  return [
    async (c, next) => {
      if (accepts('application/json', essence(c.req.header('content-type') ?? ''))) {
        const problem = jsonTextProblem(await c.req.text());
        if (problem) throw new ValidationError(`body: ${problem}`, 'body');
      }
      return next();
    },
  ];
}

/** A router whose zod validation failures become our 400 with the field named. */
export function router() {
  const r = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issue = result.error.issues[0];
        const field = issue?.path.join('.') || undefined;
        throw new ValidationError(
          field ? `${field}: ${issue?.message}` : (issue?.message ?? 'invalid input'),
          field,
        );
      }
    },
  });
  const register = r.openapi;
  r.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const own = route.middleware ? [route.middleware].flat() : [];
    // A route is documented as needing a token unless it says otherwise (`security: []` when
    // public): a route that forgets is then documented too strictly, never too loosely.
    // tests/e2e/openapi.test.ts checks every such route answers 401 without one.
    return (register as (...a: unknown[]) => unknown)(
      {
        ...route,
        security: route.security ?? bearer,
        middleware: [...bodyGate(route), ...own, ...jsonGuard(route)],
      },
      ...rest,
    );
  }) as typeof r.openapi;
  return r;
}

export type Router = ReturnType<typeof router>;
