import { z } from '@hono/zod-openapi';
import { ServiceError, ValidationError } from '#shared/http/errors';
import { assertPublicTarget } from '#shared/outbound/guard';
import {
  type CloudWebhookConfig,
  getCloudWebhookConfig,
  putCloudWebhookConfig,
} from '#shared/webhooks/cloud/config-store';
import { verifyCloudReceiver } from '#shared/webhooks/cloud/verify';
import {
  effectiveConfig,
  hostOf,
  isApprovedHost,
  maskSecret,
  normaliseDomain,
} from '#shared/webhooks/config';
import { getWebhookConfig } from '#shared/webhooks/config-store';

/** The tenant's Cloud-format webhook as the API shows it: secrets masked. */
export const CloudConfigView = z
  .object({
    format: z.literal('cloud'),
    webhookUrl: z.string().nullable(),
    appSecret: z.string().nullable().openapi({ description: 'Masked' }),
    hasAppSecret: z.boolean(),
    verifyToken: z.string().nullable().openapi({ description: 'Masked' }),
    approvedDomains: z.array(z.string()),
    enabled: z.boolean().nullable(),
    verifiedAt: z.string().nullable().openapi({ description: 'When the receiver last echoed the challenge' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('CloudWebhookConfig');

export function cloudView(c: CloudWebhookConfig | undefined): z.infer<typeof CloudConfigView> {
  return {
    format: 'cloud',
    webhookUrl: c?.webhookUrl ?? null,
    appSecret: maskSecret(c?.appSecret),
    hasAppSecret: Boolean(c?.appSecret),
    verifyToken: maskSecret(c?.verifyToken),
    approvedDomains: c?.approvedDomains ?? [],
    enabled: c?.enabled ?? null,
    verifiedAt: c?.verifiedAt ?? null,
    updatedAt: c?.updatedAt ?? null,
  };
}

export interface CloudConfigInput {
  webhookUrl?: string | null;
  appSecret?: string | null;
  verifyToken?: string | null;
  approvedDomains?: string[] | null;
  enabled?: boolean;
}

/** Fields sent replace the stored ones; `null` or "" removes one; absent fields stay. */
function merged(current: CloudWebhookConfig, body: CloudConfigInput): CloudWebhookConfig {
  const next: CloudWebhookConfig = { ...current, updatedAt: new Date().toISOString() };
  if (body.webhookUrl !== undefined) next.webhookUrl = body.webhookUrl || undefined;
  if (body.appSecret !== undefined) next.appSecret = body.appSecret || undefined;
  if (body.verifyToken !== undefined) next.verifyToken = body.verifyToken || undefined;
  if (body.approvedDomains !== undefined) {
    const domains = [...new Set((body.approvedDomains ?? []).map(normaliseDomain).filter(Boolean))];
    next.approvedDomains = domains.length ? domains : undefined;
  }
  if (body.enabled !== undefined) next.enabled = body.enabled;
  return next;
}

/**
 * Saves the tenant's Cloud-format webhook. A configuration that will receive deliveries (a URL,
 * not disabled) needs its app secret (deliveries are signed with it) and verify token, an approved
 * public host, and a receiver that passes Meta's verification handshake now; else nothing is saved.
 */
export async function saveCloudConfig(tenantId: string, body: CloudConfigInput): Promise<CloudWebhookConfig> {
  const [current, native] = await Promise.all([getCloudWebhookConfig(tenantId), getWebhookConfig(tenantId)]);
  const next = merged(current ?? {}, body);
  if (next.webhookUrl && next.enabled !== false) {
    if (!next.appSecret)
      throw new ValidationError('appSecret: required for a Cloud-format webhook', 'appSecret');
    if (!next.verifyToken)
      throw new ValidationError('verifyToken: required for a Cloud-format webhook', 'verifyToken');
    const eff = effectiveConfig(native, { approvedDomains: next.approvedDomains });
    const host = hostOf(next.webhookUrl);
    if (!isApprovedHost(host, eff.approvedDomains)) {
      throw new ServiceError(
        'DOMAIN_NOT_APPROVED',
        `webhookUrl host ${host} is not an approved domain; add it to approvedDomains`,
        { field: 'webhookUrl' },
      );
    }
    await assertPublicTarget(next.webhookUrl);
    await verifyCloudReceiver(next.webhookUrl, next.verifyToken);
    next.verifiedAt = new Date().toISOString();
  }
  await putCloudWebhookConfig(tenantId, next);
  return next;
}
