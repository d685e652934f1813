import { readLeases, take } from '../connection-host/leases.ts';
import { FULL_READ_EVERY, WATCHED, watchedCount } from '../connection-host/plan-reads.ts';
import { bootstrapResources } from '../scripts/local/bootstrap.ts';
import { startLocalAws } from '../scripts/local/local-aws.ts';
import { dynamoClient } from '../shared/aws/clients.ts';
import { resetEnvCache } from '../shared/config/env.ts';
import {
  beat,
  bumpPlanVersion,
  heartbeatExpiries,
  liveHosts,
  planVersion,
} from '../shared/hosts/registry.ts';
import { must } from '../shared/must.ts';

/**
 * Read units a connection host's lease tick costs, as DynamoDB itself counts them
 * (ReturnConsumedCapacity TOTAL on every read, DynamoDB Local reporting as DynamoDB does), with
 * `shards` lease shards held by H hosts whose heartbeats carry what host.ts writes (their shard
 * lists, sessions, RSS, times). Per H: a full read (the leases partition and every heartbeat, what
 * each tick read before connection-host/plan-reads.ts), a tick at rest (the plan's version and the
 * heartbeats of the next WATCHED hosts), and the mean per tick with a full read every
 * FULL_READ_EVERY to 1.5× that many ticks.
 *
 * Run: npx tsx bench/lease-reads.ts [hosts=10,100,1000] [shards=1024] [sessions=4000]
 */
const HOSTS = (process.argv[2] ?? '10,100,1000').split(',').map(Number);
const SHARDS = Number(process.argv[3] ?? 1024);
const SESSIONS = Number(process.argv[4] ?? 4000);

await startLocalAws();
process.env.LOG_LEVEL ??= 'warn';
let units = 0;
dynamoClient().middlewareStack.add(
  ((next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
    if (!/^(Get|Query|BatchGet)/.test(context.commandName ?? '')) return next(args);
    args.input.ReturnConsumedCapacity = 'TOTAL';
    const out = await next(args);
    const cc = out.output?.ConsumedCapacity;
    for (const c of Array.isArray(cc) ? cc : cc ? [cc] : []) units += c.CapacityUnits ?? 0;
    return out;
  }) as never,
  { step: 'initialize', name: 'read-units-meter' },
);
const metered = async (fn: () => Promise<unknown>) => {
  units = 0;
  await fn();
  return units;
};

console.log(
  `\n| Hosts | Full read: leases + heartbeats (RU) | Tick at rest: version + ${WATCHED} heartbeats (RU) | Mean per tick, full read every ${FULL_READ_EVERY}–${Math.floor(FULL_READ_EVERY * 1.5)} ticks (RU) | Before: every tick a full read (RU) |`,
);
console.log('|---|---|---|---|---|');
for (const n of HOSTS) {
  process.env.RESOURCE_PREFIX = `lr${n}x${Date.now() % 100000}`;
  resetEnvCache();
  await bootstrapResources(process.env.RESOURCE_PREFIX, 4);
  const ids = Array.from({ length: n }, (_, i) => `host-${(0x10000000 + i * 7919).toString(16)}`);
  const owner = (shard: number) => must(ids[shard % n], 'a host id');
  for (let s = 0; s < SHARDS; s += 64)
    await Promise.all(
      Array.from({ length: Math.min(64, SHARDS - s) }, (_, i) => take(s + i, owner(s + i), {})),
    );
  for (let i = 0; i < n; i += 64)
    await Promise.all(
      ids.slice(i, i + 64).map((hostId, j) => {
        const shards = Array.from({ length: SHARDS }, (_, s) => s).filter((s) => s % n === i + j);
        const sessions = Math.round(SESSIONS / n);
        return beat(
          {
            hostId,
            shards,
            sessions,
            ready: sessions,
            rssBytes: 180_000_000 + sessions * 2_100_000,
            full: false,
            busy: false,
            startedAt: new Date().toISOString(),
          },
          60_000,
        );
      }),
    );
  await bumpPlanVersion();
  const leases = await metered(async () => {
    if ((await readLeases()).length !== SHARDS) throw new Error('leases missing');
  });
  const hosts = await metered(async () => {
    if ((await liveHosts()).length !== n) throw new Error('heartbeats missing');
  });
  const rest = await metered(async () => {
    await planVersion();
    await heartbeatExpiries(ids.slice(1, 1 + watchedCount(n)));
  });
  const full = leases + hosts;
  const every = FULL_READ_EVERY + (FULL_READ_EVERY / 2 - 1) / 2; // the mean of the jittered spacing
  const mean = rest + (full - rest) / every;
  console.log(
    `| ${n} | ${full.toFixed(1)} (${leases.toFixed(1)} + ${hosts.toFixed(1)}) | ${rest.toFixed(1)} | ${mean.toFixed(2)} | ${full.toFixed(1)} |`,
  );
}
process.exit(0);
