// `npm run cost [-- -c key=value ...]`: synthesises the stack offline with those settings and prints
// what it costs a month idle and per 1,000 messages, from the template's resources times
// infra/cost/prices.ts (infra/cost/report.ts). Markdown, for docs/deploy.md ("Cost").
import { costReport } from '../infra/cost/report.ts';

const context: Record<string, string> = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const kv = args[i] === '-c' || args[i] === '--context' ? args[++i] : undefined;
  const [, key, value] = kv?.match(/^([^=]+)=(.*)$/) ?? [];
  if (key === undefined || value === undefined) {
    throw new Error(`usage: npm run cost [-- -c key=value ...]; got ${args[i]}`);
  }
  context[key] = value;
}
process.stdout.write(`${costReport(context)}\n`);
