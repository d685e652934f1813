import { isIP } from 'node:net';
import { env } from '../config/env.ts';

/** What a tenant (or one session, as an override) stored. Absent fields inherit. */
export interface WebhookConfig {
  webhookUrl?: string;
  secretToken?: string;
  approvedDomains?: string[];
  enabled?: boolean;
  updatedAt?: string;
}

export type DomainsSource = 'session' | 'tenant' | 'environment' | 'none';

/** The configuration a delivery uses: the session override's fields win over the tenant's. */
export interface EffectiveConfig {
  webhookUrl?: string;
  secretToken?: string;
  approvedDomains: string[];
  domainsSource: DomainsSource;
  enabled: boolean;
}

/** WEBHOOK_APPROVED_DOMAINS: the allowlist when neither the tenant nor the session sets one. */
export function environmentDomains(): string[] {
  return (env().WEBHOOK_APPROVED_DOMAINS ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
}

export function effectiveConfig(tenant?: WebhookConfig, session?: WebhookConfig): EffectiveConfig {
  const fromEnv = environmentDomains();
  const [approvedDomains, domainsSource]: [string[], DomainsSource] = session?.approvedDomains?.length
    ? [session.approvedDomains, 'session']
    : tenant?.approvedDomains?.length
      ? [tenant.approvedDomains, 'tenant']
      : fromEnv.length
        ? [fromEnv, 'environment']
        : [[], 'none'];
  return {
    webhookUrl: session?.webhookUrl ?? tenant?.webhookUrl,
    secretToken: session?.secretToken ?? tenant?.secretToken,
    approvedDomains,
    domainsSource,
    // Configuring a URL turns forwarding on unless `enabled: false` was set.
    enabled: session?.enabled ?? tenant?.enabled ?? true,
  };
}

/** `example.com`, `*.example.com`, `https://example.com:8443/x` → `example.com`; `*` stays. */
export function normaliseDomain(d: string): string {
  const t = d.trim().toLowerCase();
  if (t === '*') return t;
  const noScheme = t.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const host = noScheme.startsWith('[')
    ? noScheme.slice(0, noScheme.indexOf(']') + 1)
    : (noScheme.split(/[/:?#]/)[0] ?? '');
  return host.replace(/^\*\./, '').replace(/^\./, '').replace(/\.$/, '');
}

export function hostOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
}

/** Host equals an approved domain or is a subdomain of one; `*` approves every host. IPs match exactly. */
export function isApprovedHost(host: string, domains: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const bare = h.replace(/^\[|\]$/g, '');
  return domains.some((raw) => {
    const d = normaliseDomain(raw);
    if (d === '*') return true;
    if (!d) return false;
    const dBare = d.replace(/^\[|\]$/g, '');
    if (isIP(bare)) return bare === dBare;
    return h === d || h.endsWith(`.${d}`);
  });
}

/** Shows that a secret is set without showing it. */
export function maskSecret(secret: string | undefined): string | null {
  if (!secret) return null;
  return secret.length >= 12 ? `****${secret.slice(-4)}` : '****';
}
