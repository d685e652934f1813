import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './lambda-bundle.ts';

const out = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npx cdk synth', () => {
  it('synthesises offline, as an operator runs it (cdk.json flags, cdk-nag, a concrete region)', () => {
    // No credentials and no network: the account stays a token, the region is the one given.
    const env: NodeJS.ProcessEnv = { ...process.env, CDK_DEFAULT_REGION: 'eu-west-1' };
    delete env.CDK_DEFAULT_ACCOUNT;
    execFileSync('npx', ['cdk', 'synth', '--quiet', '-o', out, '-c', 'prefix=synth'], {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const template = JSON.parse(readFileSync(join(out, 'synth.template.json'), 'utf8'));
    const types = new Set(
      Object.values(template.Resources as Record<string, { Type: string }>).map((r) => r.Type),
    );
    for (const type of [
      'AWS::ECS::Service',
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'AWS::ApiGatewayV2::Stage',
    ])
      expect(types).toContain(type);
    // cdk-nag wrote its report: every finding either absent or suppressed with a reason.
    const report = readFileSync(join(out, 'AwsSolutions-synth-NagReport.csv'), 'utf8');
    expect(report).not.toMatch(/,Non-Compliant,/);
  }, 180_000);
});
