import { OpenAPIHono } from '@hono/zod-openapi';
import type { TokenClaims } from '../auth/claims.ts';
import { ValidationError } from './errors.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    auth: TokenClaims;
  };
}

/** A router whose zod validation failures become our 400 with the field named. */
export function router() {
  return new OpenAPIHono<AppEnv>({
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
}

export type Router = ReturnType<typeof router>;
