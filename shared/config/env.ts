import { z } from 'zod';
import { SQS_MAX_DELAY_SECONDS } from '../queue/limits.ts';

const SQS_MAX_DELAY_MS = SQS_MAX_DELAY_SECONDS * 1000;

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/**
 * What the runtime sets (Lambda, ECS, the local launcher, npm) rather than the deployment: read by
 * the logger as it loads and by the AWS clients, so parsed on their own (`runtimeEnv()`, uncached,
 * cheap): the logger starts even when the rest of the settings are invalid, and can say so.
 */
const runtimeFields = {
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Local mode: the launcher points the SDK at its emulators (the SDK reads these itself too). */
  AWS_ENDPOINT_URL_DYNAMODB: z.string().url().optional(),
  AWS_ENDPOINT_URL_S3: z.string().url().optional(),
  AWS_ENDPOINT_URL_SQS: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: readable lines through pino-pretty (`npm start` on a terminal); anything else JSON. */
  LOG_FORMAT: z.string().optional(),
  /** The `svc` of every log line and the metrics' service dimension. */
  SERVICE_NAME: z.string().min(1).optional(),
  /** npm sets it when it runs a script: the version `/health` and `/openapi.json` report. */
  npm_package_version: z.string().min(1).default('0.1.0'),
  /** Set by the stack on the API: the public address of the streams (functions/api/handler.ts). */
  STREAM_BASE_URL: z.string().url().optional(),
  NODE_ENV: z.string().optional(),
  /** Tests only (with NODE_ENV=test): the root key the Baileys driver trusts, for a fake server. */
  BAILEYS_TEST_ROOT_PUBLIC_KEY: z.string().optional(),
};
const RuntimeSchema = z.object(runtimeFields);
export type RuntimeEnv = z.infer<typeof RuntimeSchema>;

/** The runtime's variables, read now (not cached: the launcher and tests set them as they go). */
export function runtimeEnv(): RuntimeEnv {
  return RuntimeSchema.parse(process.env);
}

const EnvSchema = z
  .object({
    ...runtimeFields,
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    MESSAGING_DRIVER: z.enum(['baileys', 'simulator']).default('baileys'),
    ADMIN_API_KEY: z.string().min(16).optional(),
    JWT_SECRET: z.string().min(32).optional(),
    /** Signs the service's links (shared/links); derived from JWT_SECRET when unset (local mode). */
    LINK_SECRET: z.string().min(32).optional(),
    JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
    RESOURCE_PREFIX: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/)
      .default('wsm'),
    /** FIFO command queues (the cloud stack makes one each): a session's commands go to its shard's. */
    SHARD_COUNT: z.coerce.number().int().min(1).max(64).default(4),
    /**
     * Units of ownership the connection hosts share (connection-host/shard-leases.ts): enough for a
     * thousand hosts. A multiple of SHARD_COUNT, so lease shard s feeds command queue s mod SHARD_COUNT.
     */
    LEASE_SHARDS: z.coerce.number().int().min(1).max(4096).default(1024),
    /** Physical names the CDK stack generated; `<prefix>-data`, `<prefix>-auth`, `<prefix>-media` when unset. */
    DATA_TABLE_NAME: z.string().min(3).optional(),
    AUTH_TABLE_NAME: z.string().min(3).optional(),
    MEDIA_BUCKET_NAME: z.string().min(3).optional(),
    ANTHROPIC_BASE_URL: z.string().url().optional(),
    ANTHROPIC_API_KEYS: z.string().optional(),
    /** The model chain (docs/chatbot.md, "Model chain"): primary model, fallback pool, Bedrock, limits. */
    ANTHROPIC_MODEL: z.string().min(1).default('claude-haiku-4-5'),
    AI_FALLBACK_KIND: z.enum(['anthropic', 'openai']).default('anthropic'),
    AI_FALLBACK_BASE_URL: z.string().url().optional(),
    AI_FALLBACK_API_KEYS: z.string().optional(),
    /** The fallback pool's model; ANTHROPIC_MODEL (kind anthropic) or gpt-4o-mini (kind openai) when unset. */
    AI_FALLBACK_MODEL: z.string().min(1).optional(),
    BEDROCK_ENDPOINT_URL: z.string().url().optional(),
    /** The Bedrock hop is skipped when unset. */
    BEDROCK_MODEL_ID: z.string().min(1).optional(),
    /** Each model request's time limit (one key of one pool, or Bedrock). */
    AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
    AI_MAX_TOKENS: z.coerce.number().int().min(1).max(64_000).default(1024),
    WEBHOOK_APPROVED_DOMAINS: z.string().optional(),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: bool,
    PAYMENT_UPI_ID: z.string().optional(),
    PAYMENT_UPI_NAME: z.string().optional(),
    /** Contacts export (docs/exports.md): more rows than this and a csv export goes to S3 as a link. */
    CONTACTS_EXPORT_S3_THRESHOLD: z.coerce.number().int().min(1).default(50_000),
    /** The Sheets API and Google's OAuth token endpoint (tests point them at a local fake). */
    GOOGLE_SHEETS_BASE_URL: z.string().url().default('https://sheets.googleapis.com'),
    GOOGLE_OAUTH_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
    TTS_PROVIDER: z.string().default('local'),
    /** Speech to text (docs/media.md): an OpenAI-compatible endpoint, tried first when set. */
    STT_BASE_URL: z.string().url().optional(),
    STT_API_KEY: z.string().optional(),
    STT_MODEL: z.string().min(1).default('whisper-1'),
    /** The Sarvam provider (Indian languages); tried when its key is set. */
    SARVAM_BASE_URL: z.string().url().default('https://api.sarvam.ai'),
    SARVAM_API_KEY: z.string().optional(),
    SARVAM_STT_MODEL: z.string().min(1).default('saarika:v2.5'),
    DATA_DIR: z.string().default('.data'),
    /**
     * Puts made in the same turn committed in one transaction (shared/store/group-commit.ts): set by
     * `npm start` on its DynamoDB Local on disk, where each request is a disk commit; never on AWS,
     * where a transaction costs twice the write units.
     */
    DYNAMODB_GROUP_WRITES: bool,
    /**
     * Where a connection host keeps host events the events queue or S3 has not taken yet (an outage),
     * until they are handed on; `DATA_DIR/spool` when unset. Survives a restart on the same disk.
     */
    SPOOL_DIR: z.string().min(1).optional(),
    /** Browser origins allowed to call the API and open the streams, comma-separated (shared/http/cors.ts); none when unset. */
    CORS_ORIGINS: z.string().optional(),
    /**
     * Set by the stack on the API: the key the CloudFront distribution sends with every request
     * (shared/http/edge-origin.ts). Set, a request without it is refused and the client's address is
     * the one the distribution saw. Unset (local mode), every request is served.
     */
    EDGE_ORIGIN_KEY: z.string().min(32).optional(),
    /** The API's public address: links (`/links/{token}`) point here. */
    PUBLIC_BASE_URL: z.string().url().optional(),
    SIM_NETWORK_URL: z.string().url().optional(),
    HOST_ID: z.string().optional(),
    /** The connection host serves HTTP (SSE streams, health) on this port when set. */
    HOST_HTTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    LEASE_TTL_MS: z.coerce.number().int().min(1000).default(15_000),
    /**
     * A host past this resident memory takes no more shards (connection-host/memory-budget.ts); no
     * limit when unset. The cloud stack sets it from the task's memory.
     */
    HOST_MEMORY_BUDGET_MB: z.coerce.number().int().min(64).optional(),
    SEND_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    ZOMBIE_IDLE_MS: z.coerce.number().int().min(1000).default(90_000),
    /** Refused logins (405 …) in a row, with no READY between, before a session is FAILED (bad session). */
    RECONNECT_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
    /** The network's WebSocket endpoint (Baileys' default when unset); tests point it at a dead port. */
    BAILEYS_WS_URL: z.string().url().optional(),
    /**
     * The client version the host announces (`2.3000.1027934701`), pinned: never looked up. Unset,
     * Baileys' built-in one until a 405 makes the host look the current one up (baileys-driver.md).
     */
    BAILEYS_VERSION: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'three numbers separated by dots, e.g. 2.3000.1027934701')
      .transform((v) => v.split('.').map(Number) as [number, number, number])
      .optional(),
    RECONNECT_BASE_MS: z.coerce.number().int().min(10).default(1000),
    /** The longest wait between two reconnect attempts (the backoff's cap); retries never stop. */
    RECONNECT_MAX_DELAY_MS: z.coerce.number().int().min(10).default(60_000),
    /** ffmpeg for voice notes and videos; unset: npm's build, else `ffmpeg` on PATH (shared/config/binaries.ts). */
    VOICE_FFMPEG_PATH: z.string().min(1).optional(),
    /** Media analysis (docs/media.md): the time all analysers of one message get together. */
    MEDIA_ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(110_000).default(60_000),
    /** OCR languages for inbound images, comma-separated shipped codes (eng, mal). */
    MEDIA_OCR_LANGS: z.string().default('eng'),
    /** Reads a video's duration and streams before it is described (docs/media.md); unset: as VOICE_FFMPEG_PATH. */
    VOICE_FFPROBE_PATH: z.string().min(1).optional(),
    /** Messages per session per month unless the session has its own limit. */
    DEFAULT_MESSAGE_QUOTA: z.coerce.number().int().min(0).max(100_000_000).default(1000),
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * How long the events consumer waits for the first webhook attempts of the messages it stored
     * before leaving the rest to the webhooks queue (docs/events.md, "Delivery"); under the events
     * consumer's 10 s timeout.
     */
    WEBHOOK_FIRST_ATTEMPTS_BUDGET_MS: z.coerce.number().int().min(0).max(5_000).default(2_000),
    /**
     * SSE streams (docs/events.md, "Fair sharing"): open streams one process serves at most, over all
     * tenants and per tenant (the tenant stream and the extraction stream together); one more is 429.
     */
    SSE_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
    SSE_MAX_CONNECTIONS_PER_TENANT: z.coerce.number().int().min(1).default(100),
    /** Events one stream request replays after `Last-Event-ID` at most; the client resumes for the rest. */
    SSE_REPLAY_MAX: z.coerce.number().int().min(1).max(10_000).default(500),
    /** How often an open SSE stream checks that its credential still holds (revoked, disabled, rotated). */
    SSE_ACCESS_RECHECK_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    /** SQS caps DelaySeconds at 15 minutes. */
    WEBHOOK_RETRY_MAX_DELAY_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(SQS_MAX_DELAY_MS)
      .default(SQS_MAX_DELAY_MS),
    /** Inbound messages from one chat within this window are answered as one turn (SQS DelaySeconds, whole seconds). */
    CHATBOT_DEBOUNCE_MS: z.coerce.number().int().min(0).max(SQS_MAX_DELAY_MS).default(1000),
    /** No automatic reply to a message older than this when the chatbot sees it (docs/events.md, "Backlog"). */
    CHATBOT_MAX_MESSAGE_AGE_S: z.coerce.number().int().min(1).default(300),
    /**
     * Human takeover (docs/chatbot.md): how long the bot stays out of a chat after the business wrote
     * to it; a session key's own `takeoverMinutes` wins. Fractions allowed (0.5 = 30 s); at most a week.
     */
    CHATBOT_TAKEOVER_MINUTES: z.coerce.number().positive().max(10_080).default(30),
    /** Turns of the chat (inbound and outbound messages) the model sees. */
    CHATBOT_HISTORY_TURNS: z.coerce.number().int().min(0).max(100).default(10),
    /** Human-like delivery: the random pause before `composing` starts. */
    CHATBOT_PAUSE_MIN_MS: z.coerce.number().int().min(0).default(300),
    CHATBOT_PAUSE_MAX_MS: z.coerce.number().int().min(0).default(1000),
    /** Human-like delivery: the typing delay, 30 ms per character clamped to these bounds. */
    CHATBOT_TYPING_MIN_MS: z.coerce.number().int().min(0).default(1200),
    CHATBOT_TYPING_MAX_MS: z.coerce.number().int().min(0).default(5000),
    /**
     * `emf`: counters are written to the log as CloudWatch embedded metrics (the stack sets it);
     * `prometheus`: they are kept for `GET /metrics` (docs/observability.md).
     */
    METRICS_FORMAT: z.enum(['prometheus', 'emf']).default('prometheus'),
  })
  .refine((e) => e.LEASE_SHARDS % e.SHARD_COUNT === 0, {
    message: 'LEASE_SHARDS must be a multiple of SHARD_COUNT',
    path: ['LEASE_SHARDS'],
  });

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/** Parsed process environment; read once, after the launcher has filled in local defaults. */
export function env(): Env {
  cached ??= EnvSchema.parse(process.env);
  return cached;
}

/** Every setting's default, as a process with nothing set reads it (`npm run cost` prices the defaults). */
export function envDefaults(): Env {
  return EnvSchema.parse({});
}

/** For launchers and tests that change process.env before the first read. */
export function resetEnvCache(): void {
  cached = undefined;
}
