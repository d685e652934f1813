import type { App } from 'aws-cdk-lib';
import { HOST_SETTING_NAMES, type HostSettings, hostSettingsFrom } from './host-settings.ts';
import { RETENTION_DAYS } from './log-groups.ts';

export interface DeploymentSettings {
  /** Physical-name prefix of every resource, and the stack name. */
  prefix: string;
  /** Number of command-queue shards; must match SHARD_COUNT of every process. */
  shardCount: number;
  /**
   * The service's one public host name (`-c domainName=wa.example.com`): the API, the streams, every
   * link and `/docs`. Without it, the CloudFront distribution's own `*.cloudfront.net` name.
   */
  domainName?: string;
  /** ACM certificate of `domainName`, in us-east-1 (CloudFront's region; `-c certificateArn=...`). */
  certificateArn?: string;
  /** The Route 53 hosted zone of `domainName`; given, the stack creates its alias records. */
  hostedZone?: { id: string; name: string };
  /** Subscribed to the alarm topic (`-c alertEmail=...`, or its older name `-c alarmEmail=...`). */
  alarmEmail?: string;
  /** Alarms go to this existing SNS topic instead of one the stack creates (`-c alarmTopicArn=...`). */
  alarmTopicArn?: string;
  /** Keep tables and the media bucket on `cdk destroy` (`-c retainData=false` to delete them). */
  retainData: boolean;
  /**
   * Service settings given as context (`-c anthropicModel=...`), as the environment variables they
   * set (docs/deploy.md, "Settings"); keys are never context: they live in the AI keys secret.
   */
  service?: Record<string, string>;
  /**
   * A Lambda layer (for ARM64) with `bin/ffmpeg` and `bin/ffprobe`, for video descriptions in the
   * media consumer (`-c ffmpegLayerArn=...`; docs/deploy.md, "Video in the cloud").
   */
  ffmpegLayerArn?: string;
  /** API Gateway throttling, requests per second (`-c apiRateLimit=...`, `-c apiBurstLimit=...`). */
  apiRateLimit?: number;
  apiBurstLimit?: number;
  /** Days every log group keeps events (`-c logRetentionDays=...`; 30 when unset). */
  logRetentionDays?: number;
  /** Keep the log groups on `cdk destroy` (`-c retainLogs=true`; deleted with the stack when unset). */
  retainLogs?: boolean;
  /**
   * Origins whose browsers may call the API and open the streams (`-c corsOrigins=https://a.example,https://b.example`);
   * none when unset.
   */
  corsOrigins?: string[];
  /**
   * The connection host's size, CPU architecture, subnets and Container Insights
   * (infra/host-settings.ts); its defaults when none is given.
   */
  host?: HostSettings;
}

/** Context name → the environment variable it sets on the functions and the host. */
export const SERVICE_SETTINGS = {
  anthropicBaseUrl: 'ANTHROPIC_BASE_URL',
  anthropicModel: 'ANTHROPIC_MODEL',
  aiFallbackKind: 'AI_FALLBACK_KIND',
  aiFallbackBaseUrl: 'AI_FALLBACK_BASE_URL',
  aiFallbackModel: 'AI_FALLBACK_MODEL',
  bedrockModelId: 'BEDROCK_MODEL_ID',
  paymentUpiId: 'PAYMENT_UPI_ID',
  paymentUpiName: 'PAYMENT_UPI_NAME',
  ttsProvider: 'TTS_PROVIDER',
  sttBaseUrl: 'STT_BASE_URL',
  sarvamBaseUrl: 'SARVAM_BASE_URL',
} as const;

// Same rule as RESOURCE_PREFIX in shared/config/env.ts; bucket names also need lower case.
const PREFIX = /^[a-z0-9-]{1,40}$/;

/** Reads `-c prefix=...`, `-c shardCount=...` and the optional settings (CLI context values arrive as strings). */
export function settingsFromContext(app: App): DeploymentSettings {
  const prefix = String(app.node.tryGetContext('prefix') ?? 'wsm');
  if (!PREFIX.test(prefix)) throw new Error(`context prefix "${prefix}" must match ${PREFIX}`);
  const shardCount = Number(app.node.tryGetContext('shardCount') ?? 4);
  if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > 64) {
    throw new Error(`context shardCount "${shardCount}" must be an integer from 1 to 64`);
  }
  const optional = (key: string) => {
    const v = app.node.tryGetContext(key);
    return v === undefined || v === '' ? undefined : String(v);
  };
  const positive = (key: 'apiRateLimit' | 'apiBurstLimit') => {
    const v = optional(key);
    if (v === undefined) return {};
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`context ${key} "${v}" must be a positive integer`);
    return { [key]: n };
  };
  const retention = optional('logRetentionDays');
  if (retention !== undefined && !RETENTION_DAYS.has(Number(retention))) {
    throw new Error(
      `context logRetentionDays "${retention}" must be one of ${[...RETENTION_DAYS].sort((a, b) => a - b).join(', ')}`,
    );
  }
  const retainLogs = optional('retainLogs');
  const cors = optional('corsOrigins')
    ?.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of cors ?? []) {
    if (!/^https?:\/\/[^/\s]+$/.test(o))
      throw new Error(`context corsOrigins: "${o}" is not an origin (scheme://host[:port])`);
  }
  const domain = publicDomain(optional);
  const alarmEmail = optional('alertEmail') ?? optional('alarmEmail');
  const retainData = String(app.node.tryGetContext('retainData') ?? 'true') !== 'false';
  const service = Object.fromEntries(
    Object.entries(SERVICE_SETTINGS).flatMap(([ctx, envName]) => {
      const v = optional(ctx);
      return v === undefined ? [] : [[envName, v]];
    }),
  );
  return {
    prefix,
    shardCount,
    retainData,
    ...(Object.keys(service).length ? { service } : {}),
    ...domain,
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(optional('alarmTopicArn') ? { alarmTopicArn: optional('alarmTopicArn') } : {}),
    ...(optional('ffmpegLayerArn') ? { ffmpegLayerArn: optional('ffmpegLayerArn') } : {}),
    ...positive('apiRateLimit'),
    ...positive('apiBurstLimit'),
    ...(retention !== undefined ? { logRetentionDays: Number(retention) } : {}),
    ...(retainLogs !== undefined ? { retainLogs: retainLogs === 'true' } : {}),
    ...(cors?.length ? { corsOrigins: cors } : {}),
    ...(HOST_SETTING_NAMES.some((k) => optional(k) !== undefined)
      ? { host: hostSettingsFrom(optional) }
      : {}),
  };
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** CloudFront takes certificates from ACM in us-east-1 only, whatever the stack's region. */
const EDGE_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;

/** `domainName`, `certificateArn` and the hosted zone (`hostedZoneId`, `hostedZoneName`): all or nothing, checked. */
function publicDomain(
  optional: (key: string) => string | undefined,
): Pick<DeploymentSettings, 'domainName' | 'certificateArn' | 'hostedZone'> {
  const domainName = optional('domainName')?.toLowerCase().replace(/\.$/, '');
  const certificateArn = optional('certificateArn');
  const zoneId = optional('hostedZoneId');
  const zoneName = optional('hostedZoneName')?.toLowerCase().replace(/\.$/, '');
  if (!domainName) {
    if (certificateArn || zoneId || zoneName) {
      throw new Error(
        'context certificateArn, hostedZoneId and hostedZoneName need domainName (the name they serve)',
      );
    }
    return {};
  }
  if (!HOST_NAME.test(domainName)) throw new Error(`context domainName "${domainName}" is not a host name`);
  if (!certificateArn) {
    throw new Error(
      `context domainName needs certificateArn: an ACM certificate for ${domainName} in us-east-1`,
    );
  }
  if (!EDGE_CERTIFICATE.test(certificateArn)) {
    throw new Error(
      `context certificateArn "${certificateArn}" must be an ACM certificate in us-east-1 (CloudFront uses no other region)`,
    );
  }
  if (Boolean(zoneId) !== Boolean(zoneName)) {
    throw new Error('context hostedZoneId and hostedZoneName go together (the zone that holds domainName)');
  }
  if (zoneName && domainName !== zoneName && !domainName.endsWith(`.${zoneName}`)) {
    throw new Error(`context domainName "${domainName}" is not in the hosted zone "${zoneName}"`);
  }
  return {
    domainName,
    certificateArn,
    ...(zoneId && zoneName ? { hostedZone: { id: zoneId, name: zoneName } } : {}),
  };
}
