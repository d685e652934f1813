import { forgetCloudConfig, resolveCloudConfig } from './cloud/config-store.ts';
import { asciiJson, cloudDeliveryHeaders } from './cloud/sign.ts';
import type { EffectiveConfig } from './config.ts';
import { forgetConfig, resolveConfig } from './config-store.ts';
import { deliveryHeaders } from './sign.ts';

/**
 * A delivery's format follows from its event: `cloud.*` events go to the tenant's Cloud-format
 * webhook (Meta's envelope), every other event to the native one. The event is in the delivery
 * record, so retries, the sweep and redelivery find the same target.
 */
export const CLOUD_EVENTS = {
  inbound: 'cloud.message.inbound',
  status: 'cloud.message.status',
} as const;

export const isCloudEvent = (event: string) => event.startsWith('cloud.');

export type WebhookFormat = 'native' | 'cloud';

/** Where and how a delivery of `event` goes now. `secretToken` is the app secret for the Cloud format. */
export type Target = EffectiveConfig & { format: WebhookFormat };

export async function resolveTarget(tenantId: string, sessionId: string, event: string): Promise<Target> {
  if (!isCloudEvent(event)) return { ...(await resolveConfig(tenantId, sessionId)), format: 'native' };
  const [cloud, tenant] = await Promise.all([resolveCloudConfig(tenantId), resolveConfig(tenantId)]);
  // The Cloud webhook's own domains, else the tenant's native ones, else the environment's.
  const own = cloud?.approvedDomains?.length ? cloud.approvedDomains : undefined;
  return {
    format: 'cloud',
    webhookUrl: cloud?.webhookUrl,
    secretToken: cloud?.appSecret,
    approvedDomains: own ?? tenant.approvedDomains,
    domainsSource: own ? 'tenant' : tenant.domainsSource,
    enabled: Boolean(cloud?.webhookUrl) && (cloud?.enabled ?? true),
  };
}

/**
 * As `resolveTarget`, but a target that would send nothing is read again from the store first: the
 * job was queued where a webhook was configured, and a configuration this process remembered from
 * before that (another process saved it) must not fail the delivery for good.
 */
export async function currentTarget(tenantId: string, sessionId: string, event: string): Promise<Target> {
  const cached = await resolveTarget(tenantId, sessionId, event);
  if (cached.enabled && cached.webhookUrl) return cached;
  forgetConfig(tenantId);
  forgetCloudConfig(tenantId);
  return resolveTarget(tenantId, sessionId, event);
}

/** The body as stored and sent: the Cloud format escapes non-ASCII characters, as Meta does. */
export function serialise(event: string, payload: unknown): string {
  return isCloudEvent(event) ? asciiJson(payload) : JSON.stringify(payload);
}

/** The headers of one attempt in the target's format. */
export function headersFor(
  target: Target,
  d: { deliveryId: string; event: string; attempt: number; body: string },
): Record<string, string> {
  return target.format === 'cloud'
    ? cloudDeliveryHeaders({ ...d, appSecret: target.secretToken })
    : deliveryHeaders({ ...d, secret: target.secretToken });
}
