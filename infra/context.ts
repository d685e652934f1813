import type { App } from 'aws-cdk-lib';

export interface DeploymentSettings {
  /** Physical-name prefix of every resource, and the stack name. */
  prefix: string;
  /** Number of command-queue shards; must match SHARD_COUNT of every process. */
  shardCount: number;
}

// Same rule as RESOURCE_PREFIX in shared/config/env.ts; bucket names also need lower case.
const PREFIX = /^[a-z0-9-]{1,40}$/;

/** Reads `-c prefix=...` and `-c shardCount=...` (CLI context values arrive as strings). */
export function settingsFromContext(app: App): DeploymentSettings {
  const prefix = String(app.node.tryGetContext('prefix') ?? 'wsm');
  if (!PREFIX.test(prefix)) throw new Error(`context prefix "${prefix}" must match ${PREFIX}`);
  const shardCount = Number(app.node.tryGetContext('shardCount') ?? 4);
  if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > 64) {
    throw new Error(`context shardCount "${shardCount}" must be an integer from 1 to 64`);
  }
  return { prefix, shardCount };
}
