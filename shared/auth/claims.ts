import type { Scope } from './tenants.ts';

/** What a verified token says about its caller; every request handler reads the tenant from here. */
export interface TokenClaims {
  tenant: string;
  sub: string;
  scope: Scope;
}
