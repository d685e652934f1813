import type { z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { ServiceError } from '#shared/http/errors';
import { maskUrl, unmaskUrl } from '#shared/http/mask-url';
import { assertPublicTarget } from '#shared/outbound/guard';
import { requireSession } from '#shared/sessions/repository';
import { getCloudWebhookConfig } from '#shared/webhooks/cloud/config-store';
import {
  type EffectiveConfig,
  effectiveConfig,
  hostOf,
  isApprovedHost,
  maskSecret,
  normaliseDomain,
  type WebhookConfig,
} from '#shared/webhooks/config';
import { getWebhookConfig, listSessionOverrides, putWebhookConfig } from '#shared/webhooks/config-store';
import { requireAuth } from '../auth/middleware.ts';
import { cloudView, saveCloudConfig } from './cloud-config.ts';
import {
  type ConfigBody,
  type ConfigView,
  configRoute,
  type EffectiveView,
  saveConfigRoute,
} from './config-routes.schema.ts';
import { deliveryRoutes } from './delivery-routes.ts';

function view(c: WebhookConfig | undefined): z.infer<typeof ConfigView> {
  return {
    webhookUrl: c?.webhookUrl ? maskUrl(c.webhookUrl) : null,
    secretToken: maskSecret(c?.secretToken),
    hasSecret: Boolean(c?.secretToken),
    approvedDomains: c?.approvedDomains ?? [],
    enabled: c?.enabled ?? null,
    updatedAt: c?.updatedAt ?? null,
  };
}

function effectiveView(e: EffectiveConfig): z.infer<typeof EffectiveView> {
  return {
    webhookUrl: e.webhookUrl ? maskUrl(e.webhookUrl) : null,
    hasSecret: Boolean(e.secretToken),
    approvedDomains: e.approvedDomains,
    approvedDomainsSource: e.domainsSource,
    enabled: e.enabled,
  };
}

/** Fields sent replace the stored ones; `null` or "" removes one; absent fields stay. */
function merged(current: WebhookConfig, body: z.infer<typeof ConfigBody>): WebhookConfig {
  const next: WebhookConfig = { ...current, updatedAt: new Date().toISOString() };
  // A URL sent back as shown keeps its masked query secrets while it points where it did.
  if (body.webhookUrl !== undefined)
    next.webhookUrl = body.webhookUrl
      ? unmaskUrl(body.webhookUrl, current.webhookUrl, 'webhookUrl')
      : undefined;
  if (body.secretToken !== undefined) next.secretToken = body.secretToken || undefined;
  if (body.approvedDomains !== undefined) {
    const domains = [...new Set((body.approvedDomains ?? []).map(normaliseDomain).filter(Boolean))];
    next.approvedDomains = domains.length ? domains : undefined;
  }
  if (body.enabled !== undefined) next.enabled = body.enabled;
  return next;
}

export function webhookRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(saveConfigRoute, async (c) => {
    const tenantId = c.get('auth').tenant;
    const body = c.req.valid('json');
    if (body.format === 'cloud') {
      const saved = await saveCloudConfig(tenantId, body);
      return c.json(
        {
          success: true as const,
          message:
            saved.verifiedAt && saved.webhookUrl
              ? 'Cloud-format webhook verified and saved'
              : 'Cloud-format webhook saved',
          format: 'cloud' as const,
          cloud: cloudView(saved),
        },
        200,
      );
    }
    const sessionId = body.sessionId ? (await requireSession(tenantId, body.sessionId)).sessionId : undefined;
    const [tenantCfg, sessionCfg] = await Promise.all([
      getWebhookConfig(tenantId),
      sessionId ? getWebhookConfig(tenantId, sessionId) : Promise.resolve(undefined),
    ]);
    const next = merged((sessionId ? sessionCfg : tenantCfg) ?? {}, body);
    const eff = sessionId ? effectiveConfig(tenantCfg, next) : effectiveConfig(next);
    if (eff.webhookUrl) {
      const host = hostOf(eff.webhookUrl);
      if (!isApprovedHost(host, eff.approvedDomains)) {
        const where =
          eff.domainsSource === 'none' ? 'no approved domains are set' : `approved: ${eff.domainsSource}`;
        throw new ServiceError(
          'DOMAIN_NOT_APPROVED',
          `webhookUrl host ${host} is not an approved domain (${where}); add it to approvedDomains`,
          { field: 'webhookUrl' },
        );
      }
      await assertPublicTarget(eff.webhookUrl);
    }
    await putWebhookConfig(tenantId, next, sessionId);
    return c.json(
      {
        success: true as const,
        message: sessionId
          ? `webhook override for session ${sessionId} saved`
          : 'webhook configuration saved',
        sessionId: sessionId ?? null,
        config: view(next),
        effective: effectiveView(eff),
      },
      200,
    );
  });

  r.openapi(configRoute, async (c) => {
    const tenantId = c.get('auth').tenant;
    const q = c.req.valid('query');
    const sessionId = q.sessionId ? (await requireSession(tenantId, q.sessionId)).sessionId : undefined;
    const [tenantCfg, sessionCfg, overrides, cloud] = await Promise.all([
      getWebhookConfig(tenantId),
      sessionId ? getWebhookConfig(tenantId, sessionId) : Promise.resolve(undefined),
      sessionId ? Promise.resolve(undefined) : listSessionOverrides(tenantId),
      getCloudWebhookConfig(tenantId),
    ]);
    return c.json(
      {
        success: true as const,
        sessionId: sessionId ?? null,
        config: view(sessionId ? sessionCfg : tenantCfg),
        effective: effectiveView(effectiveConfig(tenantCfg, sessionCfg)),
        overrides: overrides?.map((o) => ({ ...view(o), sessionId: o.sessionId })),
        cloud: cloud ? cloudView(cloud) : null,
      },
      200,
    );
  });

  r.route('/', deliveryRoutes());
  return r;
}
