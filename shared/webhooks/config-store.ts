import { Remembered } from '../remembered.ts';
import { webhookConfigKey, webhookOverridesOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { type EffectiveConfig, effectiveConfig, type WebhookConfig } from './config.ts';

type StoredConfig = WebhookConfig & { sessionId?: string };

function pick(item: StoredConfig | undefined): WebhookConfig | undefined {
  if (!item) return undefined;
  const { webhookUrl, secretToken, approvedDomains, enabled, updatedAt } = item;
  return { webhookUrl, secretToken, approvedDomains, enabled, updatedAt };
}

export async function getWebhookConfig(
  tenantId: string,
  sessionId?: string,
): Promise<WebhookConfig | undefined> {
  return pick(await dataTable.get<StoredConfig>(webhookConfigKey(tenantId, sessionId), true));
}

/** Replaces the stored configuration of the tenant, or of one session when `sessionId` is given. */
export async function putWebhookConfig(
  tenantId: string,
  config: WebhookConfig,
  sessionId?: string,
): Promise<void> {
  forgetConfig(tenantId);
  await dataTable.put({
    ...webhookConfigKey(tenantId, sessionId),
    type: 'webhook-config',
    tenantId,
    sessionId,
    ...config,
  });
  forgetConfig(tenantId);
}

export async function listSessionOverrides(
  tenantId: string,
): Promise<Array<WebhookConfig & { sessionId: string }>> {
  const items = await dataTable.query<StoredConfig & { sessionId: string }>({
    ...webhookOverridesOf(tenantId),
    ascending: true,
  });
  return items.map((i) => ({ ...pick(i), sessionId: i.sessionId }));
}

/**
 * How long a process keeps using the configuration it read (the events and webhooks consumers read
 * it for every delivery). A change made through the API applies at once in the process that made it
 * (the local service runs API and consumers in one process) and within this bound everywhere else.
 */
export const CONFIG_CACHE_MS = 5_000;
const cache = new Remembered<EffectiveConfig>({ ttlMs: CONFIG_CACHE_MS });
const cacheKey = (tenantId: string, sessionId?: string) => `${tenantId}\0${sessionId ?? ''}`;

/** Forgets the remembered configurations of a tenant (after a change of its tenant or session config). */
export function forgetConfig(tenantId: string): void {
  cache.forgetWhere((k) => k.startsWith(`${tenantId}\0`));
}

/** What a delivery for this session uses right now (remembered up to CONFIG_CACHE_MS). */
export function resolveConfig(tenantId: string, sessionId?: string): Promise<EffectiveConfig> {
  return cache.get(cacheKey(tenantId, sessionId), () => readConfig(tenantId, sessionId));
}

async function readConfig(tenantId: string, sessionId?: string): Promise<EffectiveConfig> {
  const [tenant, session] = await Promise.all([
    getWebhookConfig(tenantId),
    sessionId ? getWebhookConfig(tenantId, sessionId) : Promise.resolve(undefined),
  ]);
  return effectiveConfig(tenant, session);
}
