import { z } from '@hono/zod-openapi';
import { json, routesTagged, StringList } from '#shared/http/schemas';
import { CloudConfigView } from './cloud-config.ts';

/**
 * The definitions of the routes of config-routes.ts: their schemas, which also make /openapi.json.
 */

const isHttpUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

export const ConfigBody = z
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

export const ConfigView = z
  .object({
    webhookUrl: z.string().nullable(),
    secretToken: z.string().nullable().openapi({ description: 'Masked' }),
    hasSecret: z.boolean(),
    approvedDomains: z.array(z.string()),
    enabled: z.boolean().nullable().openapi({ description: 'null: not set at this level (inherited)' }),
    updatedAt: z.string().nullable(),
  })
  .openapi('WebhookConfig');

export const EffectiveView = z
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

const route = routesTagged('webhooks');

export const saveConfigRoute = route({
  method: 'post',
  path: '/config',
  summary: 'Configure the webhook of the tenant, or of one session (`sessionId`); all fields optional',
  description:
    'The target host must be in approvedDomains (or WEBHOOK_APPROVED_DOMAINS) and resolve to a public address, else 403 DOMAIN_NOT_APPROVED / FORBIDDEN. With `format: "cloud"`, the receiver must also pass Meta\'s verification handshake (echo `hub.challenge`), else 400 and nothing is saved.',
  request: { body: { required: true, content: { 'application/json': { schema: ConfigBody } } } },
  responses: { 200: json(z.union([ConfigAnswer, CloudAnswer])) },
});

export const configRoute = route({
  method: 'get',
  path: '/config',
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
  responses: { 200: json(ConfigAnswer) },
});
