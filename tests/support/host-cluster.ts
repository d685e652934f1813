import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { commandQueue, queueName } from '#shared/aws/resources';
import { sendJson } from '#shared/queue/send';
import { shardOf } from '#shared/sessions/shard';
import { jsonClient } from './http.ts';
import { spawnApi, spawnScript } from './processes.ts';

/**
 * Connection hosts in processes of their own beside an API process that runs the simulated network,
 * all on a resource prefix of the test's: the set-up the host failover and scale-out e2e tests share.
 * Every process started is pushed to `procs` (the test stops them).
 */
export async function hostCluster(opts: {
  /** Resource prefix stem (a clock suffix is added); its upper case starts the message ids. */
  prefix: string;
  /** SHARD_COUNT (the command queues) and the rest of the cluster's environment. */
  shardCount: number;
  env?: Record<string, string>;
  procs: ChildProcess[];
}) {
  const prefix = `${opts.prefix}${Date.now() % 1_000_000}`;
  const common = {
    RESOURCE_PREFIX: prefix,
    SHARD_COUNT: String(opts.shardCount),
    SEND_INTERVAL_MS: '0',
    ...opts.env,
  };
  const api = await spawnApi({ ...common, SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
  opts.procs.push(api.proc);
  const anon = jsonClient(api.baseUrl);
  const token = (await anon.post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY })).body.token;
  return {
    anon,
    /** The admin's client (its sessions belong to the `admin` tenant). */
    admin: jsonClient(api.baseUrl, token),
    /** Starts a host process with this id (and `env` of its own). */
    spawnHost(id: string, env: Record<string, string> = {}): ChildProcess {
      const p = spawnScript('scripts/local/host-process.ts', {
        ...common,
        SIM_NETWORK_URL: api.baseUrl,
        HOST_ID: id,
        ...env,
      });
      opts.procs.push(p);
      return p;
    },
    /** Puts a text send for one of the admin's sessions straight on its shard's command queue. */
    async sendText(sessionId: string, text: string): Promise<void> {
      const commandId = `cmd_${randomUUID()}`;
      await sendJson(
        queueName(prefix, commandQueue(shardOf(sessionId, opts.shardCount))),
        {
          kind: 'send',
          commandId,
          tenantId: 'admin',
          sessionId,
          issuedAt: Date.now(),
          messageId: `${opts.prefix.toUpperCase()}${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`,
          to: '919800000001',
          content: { kind: 'text', text },
        },
        { groupId: sessionId, dedupId: commandId },
      );
    },
  };
}
