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
  await dataTable.put({
    ...webhookConfigKey(tenantId, sessionId),
    type: 'webhook-config',
    tenantId,
    sessionId,
    ...config,
  });
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

/** What a delivery for this session uses right now. */
export async function resolveConfig(tenantId: string, sessionId?: string): Promise<EffectiveConfig> {
  const [tenant, session] = await Promise.all([
    getWebhookConfig(tenantId),
    sessionId ? getWebhookConfig(tenantId, sessionId) : Promise.resolve(undefined),
  ]);
  return effectiveConfig(tenant, session);
}
