import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template as Assertions } from 'aws-cdk-lib/assertions';
import { envDefaults } from '#shared/config/env';
import { COMMAND_WAIT_SECONDS } from '../../connection-host/command-queues.ts';
import { leaseTickMs } from '../../connection-host/shard-leases.ts';
import { cdkJsonContext } from '../app-context.ts';
import { settingsFromContext } from '../context.ts';
import { SessionManagerStack } from '../stack.ts';
import { idleCost, perThousand, type Template, table, total } from './estimate.ts';
import { PRICES_AS_OF, PRICES_REGION } from './prices.ts';
import { MESSAGE_FLOWS } from './usage.ts';

/**
 * The stack as `cdk synth -c ...` makes it with these settings (Lambda bundling skipped: the code
 * does not change what a function costs), priced: what `npm run cost` prints, as markdown.
 */
export function costReport(context: Record<string, string>): string {
  const outdir = mkdtempSync(join(tmpdir(), 'cost-synth-'));
  try {
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
    return [
      `Prices: ${PRICES_REGION}, ${PRICES_AS_OF}; settings: ${given.length ? given.join(' ') : 'the defaults'}.`,
      '',
      table('Idle, a month', idle),
      '',
      ...MESSAGE_FLOWS.flatMap((flow) => [table(`1,000 × ${flow.name}`, perThousand(template, flow), 4), '']),
      `Idle total: $${total(idle).toFixed(2)} a month; ${MESSAGE_FLOWS.map(
        (f) => `${f.name}: $${total(perThousand(template, f)).toFixed(4)} per 1,000`,
      ).join('; ')}.`,
    ].join('\n');
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
