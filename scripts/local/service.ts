import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { names } from '#shared/aws/names';
import { env, resetEnvCache } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import type { SqsHandler } from '#shared/queue/consumer';
import { eventLane } from '#shared/queue/lane-keys';
import { type PollOptions, pollQueue } from '#shared/queue/poller';
import { startConnectionHost } from '../../connection-host/host.ts';
import { createApp } from '../../functions/api/app.ts';
import { handler as chatbotHandler } from '../../functions/chatbot/handler.ts';
import { handler as eventsHandler } from '../../functions/events/handler.ts';
import { handler as mediaHandler } from '../../functions/media/handler.ts';
import { shutdownOcr } from '../../functions/media/ocr/index.ts';
import {
  isolatedWebhookLane,
  webhookLane,
  handler as webhooksHandler,
} from '../../functions/webhooks/handler.ts';
import { sweepDeliveries } from '../../functions/webhooks/sweep.ts';
import { assertSimulatorAllowed, simulatorRoutes } from '../../simulator/routes.ts';
import { bootstrapResources } from './bootstrap.ts';
import { combinedLanes } from './combined-lanes.ts';
import { spawnHosts } from './host-processes.ts';
import { lambdaTrigger } from './lambda-trigger.ts';
import { startLocalAws } from './local-aws.ts';
import { localDriver } from './local-driver.ts';
import { localSecrets } from './secrets.ts';

export interface ServiceOptions {
  /** Persist DynamoDB and secrets here; in memory when absent. */
  dataDir?: string;
  port?: number;
  driver?: 'simulator' | 'baileys';
  /** Extra environment for this process (e.g. LOG_LEVEL). */
  env?: Record<string, string>;
  /** Run the connection host in this process (default true). */
  withHost?: boolean;
  /**
   * Connection hosts: 1 (the default) runs one in this process; more run that many as child
   * processes sharing the shards (`HOSTS=<n> npm start`, scripts/local/host-processes.ts).
   */
  hosts?: number;
  /** `external`: use the AWS endpoints already in the environment instead of starting servers. */
  aws?: 'start' | 'external';
  /**
   * Runs once the AWS endpoints are set, before any AWS request: where a benchmark adds its SDK
   * middleware (a client resolves its middleware at its first request, shared/aws/clients.ts).
   */
  beforeFirstRequest?: () => void;
}

function externalAws() {
  const keys = [
    'AWS_REGION',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ENDPOINT_URL_DYNAMODB',
    'AWS_ENDPOINT_URL_S3',
    'AWS_ENDPOINT_URL_SQS',
    'AWS_ENDPOINT_URL_SECRETS_MANAGER',
  ];
  const env = Object.fromEntries(
    keys.flatMap((k) => {
      const value = process.env[k];
      return value ? [[k, value]] : [];
    }),
  );
  return { env, dynamoPid: undefined as number | undefined, stop: async () => {} };
}

/** A consumer Lambda's very handler, driven by the local poller as its SQS trigger would drive it. */
const pollLambda = (queueName: string, handler: SqsHandler, opts: PollOptions) =>
  pollQueue(queueName, lambdaTrigger(queueName, handler), opts);

/** LEASE_SHARDS in local mode unless set (the cloud's default is 1024). */
const LOCAL_LEASE_SHARDS = 64;

export interface RunningService {
  baseUrl: string;
  adminApiKey: string;
  generatedAdminKey: boolean;
  /** Everything another process needs to join this service (AWS endpoints, names, secrets). */
  env: Record<string, string>;
  /** DynamoDB Local's JVM when this service started it (benchmarks read its CPU time). */
  dynamoPid?: number;
  stop(): Promise<void>;
}

/**
 * The whole service on this machine: local AWS-compatible servers, the HTTP app, the connection
 * host and the queue consumers. `npm start` and the tests both run it through here.
 */
export async function startService(opts: ServiceOptions = {}): Promise<RunningService> {
  Object.assign(process.env, opts.env ?? {});
  if (opts.driver) process.env.MESSAGING_DRIVER = opts.driver;
  // Before anything starts: a refusal must not leave a local DynamoDB behind.
  if (process.env.MESSAGING_DRIVER === 'simulator') assertSimulatorAllowed();
  const secrets = localSecrets(opts.dataDir);
  process.env.ADMIN_API_KEY = secrets.ADMIN_API_KEY;
  process.env.JWT_SECRET = secrets.JWT_SECRET;
  const aws = opts.aws === 'external' ? externalAws() : await startLocalAws({ dataDir: opts.dataDir });
  // One machine's DynamoDB Local takes a shard change at a time far slower than DynamoDB: fewer lease
  // shards keep hand-overs quick here, and still spread sessions over as many hosts as a laptop runs.
  process.env.LEASE_SHARDS ??= String(LOCAL_LEASE_SHARDS);
  // DynamoDB Local on disk commits each write request on its own: puts of the same turn go in one
  // transaction there (shared/store/group-commit.ts). Never against real AWS (write units).
  if (opts.dataDir && opts.aws !== 'external') process.env.DYNAMODB_GROUP_WRITES ??= 'true';
  resetEnvCache();
  opts.beforeFirstRequest?.();
  const cfg = env();
  await bootstrapResources(cfg.RESOURCE_PREFIX, cfg.SHARD_COUNT);

  const stops: Array<() => Promise<void>> = [];
  const app = await createApp();
  // The simulated network shares the port but not the app: the API knows nothing of it.
  const sim = cfg.MESSAGING_DRIVER === 'simulator' ? simulatorRoutes() : undefined;
  // The server's bindings go along: with the raw Node response in them, an SSE client (and the
  // simulated network's device stream) is written to directly (shared/stream/sink.ts), as the
  // connection host does, not through web streams.
  const fetch = (req: Request, bindings: unknown) =>
    sim && new URL(req.url).pathname.startsWith('/_sim/')
      ? sim.fetch(req, bindings)
      : app.fetch(req, bindings);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch, port: opts.port ?? cfg.PORT, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.PUBLIC_BASE_URL ??= baseUrl;
  process.env.SIM_NETWORK_URL ??= baseUrl;
  resetEnvCache();

  // Pipelined: one lane per session (its events in order), sessions side by side; the lanes ready
  // at the same moment reach the handler together, whose leading runs of inbound messages are
  // stored side by side and their first webhook attempts made within one budget
  // (functions/events/batch.ts). Up to 25 of a session's events at once.
  const events = pollLambda(names.eventsQueue(), eventsHandler, {
    lanes: { keyOf: eventLane, handOver: 25, dispatch: combinedLanes(2) },
  });
  stops.push(() => events.stop());
  // A session's first attempts in order, one lane each, up to 50 at once; the lanes ready at the
  // same moment reach the handler together, which claims and records them in one transaction each.
  // A slow tenant's jobs each in a lane of its own, run apart from the combined calls, so a slow
  // receiver holds up no other tenant's deliveries (docs/events.md, "Fair sharing").
  const webhooks = pollLambda(names.webhooksQueue(), webhooksHandler, {
    lanes: { keyOf: webhookLane, handOver: 50, dispatch: combinedLanes(2, isolatedWebhookLane) },
  });
  stops.push(() => webhooks.stop());
  // Each chatbot job in a lane of its own: a slow model call never holds up the next receive.
  const chatbot = pollLambda(names.chatbotQueue(), chatbotHandler, { lanes: { keyOf: () => undefined } });
  stops.push(() => chatbot.stop());
  // Media analysis: each job in a lane of its own, at most a few at once (OCR and model calls are heavy).
  const media = pollLambda(names.mediaQueue(), mediaHandler, {
    lanes: { keyOf: () => undefined, maxInFlight: 8 },
    visibilityTimeout: 240,
  });
  stops.push(async () => {
    await media.stop();
    await shutdownOcr();
  });

  // After a crash, the deliveries whose job was in flight (a job comes back from the journal at
  // once, and one whose claim still looks fresh is dropped) or never queued get it again
  // (functions/webhooks/sweep.ts). Only where this process owns the data: a process on someone
  // else's endpoints (aws: 'external') leaves it to that one.
  if (opts.dataDir && opts.aws !== 'external') {
    void sweepDeliveries().catch((err: unknown) => logger.error({ err }, 'webhook delivery sweep failed'));
  }

  const shared: Record<string, string> = {
    ...aws.env,
    RESOURCE_PREFIX: cfg.RESOURCE_PREFIX,
    SHARD_COUNT: String(cfg.SHARD_COUNT),
    LEASE_SHARDS: String(cfg.LEASE_SHARDS),
    DYNAMODB_GROUP_WRITES: String(cfg.DYNAMODB_GROUP_WRITES),
    MESSAGING_DRIVER: cfg.MESSAGING_DRIVER,
    ADMIN_API_KEY: secrets.ADMIN_API_KEY,
    JWT_SECRET: secrets.JWT_SECRET,
    SIM_NETWORK_URL: process.env.SIM_NETWORK_URL ?? baseUrl,
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? baseUrl,
  };

  const hosts = opts.hosts ?? 1;
  if ((opts.withHost ?? true) && hosts > 1) {
    const children = spawnHosts(hosts, shared);
    stops.push(() => children.stop());
  } else if (opts.withHost ?? true) {
    // The simulated network's driver comes from here: the host itself never imports simulator/.
    const driver = localDriver();
    const host = await startConnectionHost(driver ? { driver: driver() } : {});
    stops.push(() => host.stop());
  }
  return {
    baseUrl,
    adminApiKey: secrets.ADMIN_API_KEY,
    generatedAdminKey: secrets.generatedAdminKey,
    env: shared,
    dynamoPid: aws.dynamoPid,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => {});
      await new Promise<void>((r) => {
        server.close(() => r());
        // Long-lived streams (SSE) would otherwise hold the close open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await aws.stop();
    },
  };
}
