import { Remembered } from '../../remembered.ts';
import { cloudWebhookConfigKey } from '../../store/keys.ts';
import { dataTable } from '../../store/tables.ts';
import { CONFIG_CACHE_MS } from '../config-store.ts';

/**
 * The tenant's Cloud-format webhook: Meta's envelope, signed with the app secret. One per tenant,
 * beside the native webhook (and its session overrides); both receive every event they take.
 */
export interface CloudWebhookConfig {
  webhookUrl?: string;
  /** Signs each delivery (`X-Hub-Signature-256`), as Meta's app secret does. */
  appSecret?: string;
  /** Sent in the verification handshake when the configuration is saved. */
  verifyToken?: string;
  /** Empty: the native configuration's domains apply (the tenant's, else WEBHOOK_APPROVED_DOMAINS). */
  approvedDomains?: string[];
  enabled?: boolean;
  verifiedAt?: string;
  updatedAt?: string;
}

function pick(item: CloudWebhookConfig | undefined): CloudWebhookConfig | undefined {
  if (!item) return undefined;
  const { webhookUrl, appSecret, verifyToken, approvedDomains, enabled, verifiedAt, updatedAt } = item;
  return { webhookUrl, appSecret, verifyToken, approvedDomains, enabled, verifiedAt, updatedAt };
}

export async function getCloudWebhookConfig(tenantId: string): Promise<CloudWebhookConfig | undefined> {
  return pick(await dataTable.get<CloudWebhookConfig>(cloudWebhookConfigKey(tenantId), true));
}

export async function putCloudWebhookConfig(tenantId: string, config: CloudWebhookConfig): Promise<void> {
  cache.forget(tenantId);
  await dataTable.put({
    ...cloudWebhookConfigKey(tenantId),
    type: 'webhook-config-cloud',
    tenantId,
    ...config,
  });
  cache.forget(tenantId);
}

const cache = new Remembered<CloudWebhookConfig | undefined>({ ttlMs: CONFIG_CACHE_MS });

/** Forgets the remembered Cloud configuration of a tenant (the next read goes to the store). */
export function forgetCloudConfig(tenantId: string): void {
  cache.forget(tenantId);
}

/** What a delivery uses now, remembered as long as the native configuration is (CONFIG_CACHE_MS). */
export function resolveCloudConfig(tenantId: string): Promise<CloudWebhookConfig | undefined> {
  return cache.get(tenantId, () => getCloudWebhookConfig(tenantId));
}
