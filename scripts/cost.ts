// `npm run cost [-- -c key=value ...]`: synthesises the stack offline (as `cdk synth` does, with the
// same context settings, Lambda bundling skipped) and prints what it costs a month idle and per
// 1,000 messages, from the template's resources times infra/cost/prices.ts. Markdown, for
// docs/deploy.md ("Cost").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template as Assertions } from 'aws-cdk-lib/assertions';
import { envDefaults } from '#shared/config/env';
import { COMMAND_WAIT_SECONDS } from '../connection-host/command-queues.ts';
import { leaseTickMs } from '../connection-host/shard-leases.ts';
import { cdkJsonContext } from '../infra/app-context.ts';
import { settingsFromContext } from '../infra/context.ts';
import { idleCost, perThousand, type Template, table, total } from '../infra/cost/estimate.ts';
import { PRICES_AS_OF, PRICES_REGION } from '../infra/cost/prices.ts';
import { MESSAGE_FLOWS } from '../infra/cost/usage.ts';
import { SessionManagerStack } from '../infra/stack.ts';

const context: Record<string, string> = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const kv = args[i] === '-c' || args[i] === '--context' ? args[++i] : undefined;
  const m = kv?.match(/^([^=]+)=(.*)$/);
  if (!m) throw new Error(`usage: npm run cost [-- -c key=value ...]; got ${args[i]}`);
  context[m[1]!] = m[2]!;
}

const outdir = mkdtempSync(join(tmpdir(), 'cost-synth-'));
try {
  // Bundling skipped: the functions' code does not change what they cost.
  const app = new App({
    outdir,
    context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] },
  });
  const settings = settingsFromContext(app);
  const stack = new SessionManagerStack(app, settings.prefix, { ...settings, stackName: settings.prefix });
  const template = Assertions.fromStack(stack).toJSON() as Template;
  const run = {
    leaseTickMs: leaseTickMs(envDefaults().LEASE_TTL_MS),
    commandWaitSeconds: COMMAND_WAIT_SECONDS,
  };
  const idle = idleCost(template, run);
  const given = Object.entries(context).map(([k, v]) => `-c ${k}=${v}`);
  const out = [
    `Prices: ${PRICES_REGION}, ${PRICES_AS_OF}; settings: ${given.length ? given.join(' ') : 'the defaults'}.`,
    '',
    table('Idle, a month', idle),
    '',
    ...MESSAGE_FLOWS.flatMap((flow) => [table(`1,000 × ${flow.name}`, perThousand(template, flow), 4), '']),
    `Idle total: $${total(idle).toFixed(2)} a month; ${MESSAGE_FLOWS.map(
      (f) => `${f.name}: $${total(perThousand(template, f)).toFixed(4)} per 1,000`,
    ).join('; ')}.`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
