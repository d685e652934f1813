import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './lambda-bundle.ts';

/**
 * The context in cdk.json: the CDK feature flags recommended for new projects (as `cdk init` writes
 * them). The CLI passes it to infra/app.ts; tests that build an App pass it themselves, so they
 * synthesise what `cdk deploy` deploys.
 */
export function cdkJsonContext(): Record<string, unknown> {
  return (
    JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }
  ).context;
}
