import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { ServiceError } from '#shared/http/errors';
import { maskUrl, unmaskUrl } from '#shared/http/mask-url';
import { bearer, errorResponses, json, StringList } from '#shared/http/schemas';
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
import { CloudConfigView, cloudView, saveCloudConfig } from './cloud-config.ts';
import { deliveryRoutes } from './delivery-routes.ts';

const isHttpUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

const ConfigBody = z
  .object({
    format: z.enum(['native', 'cloud']).default('native').openapi({
      description:
        "`native` (default): our payloads. `cloud`: Meta's Cloud API envelope, signed with `appSecret` (docs/webhooks-cloud.md); one per tenant, beside the native one",
    }),
    appSecret: z.string().max(512).nullable().optional().openapi({
      description: 'Cloud format: signs deliveries (`X-Hub-Signature-256`); `null` or "" removes it',
    }),
    verifyToken: z
      .string()
      .max(512)
      .nullable()
      .optional()
      .openapi({ description: 'Cloud format: sent as `hub.verify_token` in the verification handshake' }),
    webhookUrl: z
      .string()
      .trim()
      .max(2048)
      .refine((v) => v === '' || isHttpUrl(v), 'must be an http or https URL')
      .nullable()
      .optional()
      .openapi({ description: 'Receives the events; `null` or "" removes it' }),
    secretToken: z
      .string()
      .max(512)
      .nullable()
      .optional()
      .openapi({ description: 'Sent as `X-Service-Secret` and used to sign; `null` or "" removes it' }),
    approvedDomains: StringList.nullable().optional().openapi({
      description:
        'Allowed target hosts (subdomains included), array or comma-separated; `*` allows all. Empty or null falls back to WEBHOOK_APPROVED_DOMAINS',
    }),
    enabled: z.boolean().optional().openapi({ description: 'Forwarding on or off (on once a URL is set)' }),
    sessionId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Session id, mobid or number: store an override for this session only' }),
  })
  .superRefine((b, ctx) => {
    const cloud = b.format === 'cloud';
    const misplaced = cloud
      ? ([
          ['secretToken', 'the Cloud format signs with appSecret'],
          ['sessionId', 'the Cloud-format webhook is configured per tenant'],
        ] as const)
      : ([
          ['appSecret', 'appSecret is for format "cloud"'],
          ['verifyToken', 'verifyToken is for format "cloud"'],
        ] as const);
    for (const [field, why] of misplaced) {
      if (b[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `not allowed here: ${why}` });
    }
  })
  .openapi('WebhookConfigInput');

const ConfigView = z
  .object({
    webhookUrl: z.string().nullable(),
    secretToken: z.string().nullable().openapi({ description: 'Masked' }),
    hasSecret: z.boolean(),
    approvedDomains: z.array(z.string()),
    enabled: z.boolean().nullable().openapi({ description: 'null: not set at this level (inherited)' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('WebhookConfig');

const EffectiveView = z
  .object({
    webhookUrl: z.string().nullable(),
    hasSecret: z.boolean(),
    approvedDomains: z.array(z.string()),
    approvedDomainsSource: z.enum(['session', 'tenant', 'environment', 'none']),
    enabled: z.boolean(),
  })
  .openapi('WebhookEffectiveConfig');

const ConfigAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  sessionId: z.string().nullable(),
  config: ConfigView,
  effective: EffectiveView,
  overrides: z.array(ConfigView.extend({ sessionId: z.string() })).optional(),
  cloud: CloudConfigView.nullable()
    .optional()
    .openapi({ description: "The tenant's Cloud-format webhook (null: none)" }),
});

const CloudAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  format: z.literal('cloud'),
  cloud: CloudConfigView,
});

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

const tags = ['webhooks'];

export function webhookRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(
    createRoute({
      method: 'post',
      path: '/config',
      tags,
      security: bearer,
      summary: 'Configure the webhook of the tenant, or of one session (`sessionId`); all fields optional',
      description:
        'The target host must be in approvedDomains (or WEBHOOK_APPROVED_DOMAINS) and resolve to a public address, else 403 DOMAIN_NOT_APPROVED / FORBIDDEN. With `format: "cloud"`, the receiver must also pass Meta\'s verification handshake (echo `hub.challenge`), else 400 and nothing is saved.',
      request: { body: { required: true, content: { 'application/json': { schema: ConfigBody } } } },
      responses: { 200: json(z.union([ConfigAnswer, CloudAnswer])), ...errorResponses },
    }),
    async (c) => {
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
      const sessionId = body.sessionId
        ? (await requireSession(tenantId, body.sessionId)).sessionId
        : undefined;
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
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/config',
      tags,
      security: bearer,
      summary: 'The webhook configuration (secret masked), the effective one, and per-session overrides',
      request: {
        query: z.object({
          sessionId: z
            .string()
            .min(1)
            .max(100)
            .optional()
            .openapi({ description: 'Show the override of this session and what its deliveries use' }),
        }),
      },
      responses: { 200: json(ConfigAnswer), ...errorResponses },
    }),
    async (c) => {
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
    },
  );

  r.route('/', deliveryRoutes());
  return r;
}
