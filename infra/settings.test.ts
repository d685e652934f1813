import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { must } from '#shared/must';
import { cdkJsonContext } from './app-context.ts';
import { settingsFromContext } from './context.ts';
import { DEFAULT_LOG_RETENTION_DAYS } from './log-groups.ts';
import { checkWithNag } from './nag.ts';
import { SessionManagerStack } from './stack.ts';
import { functionEnvs, hostTaskEnv } from './template-queries.ts';

const outRoot = mkdtempSync(join(tmpdir(), 'cdk-settings-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));
let apps = 0;

/** The stack as `cdk synth -c ...` makes it with these settings, checked by cdk-nag. */
function synth(context: Record<string, string>) {
  const app = new App({
    context: { ...cdkJsonContext(), prefix: 'set', shardCount: '2', ...context },
    outdir: join(outRoot, String(apps++)),
  });
  const stack = new SessionManagerStack(app, `Settings${apps}`, {
    ...settingsFromContext(app),
    stackName: 'set',
  });
  checkWithNag(stack);
  return { stack, template: Template.fromStack(stack) };
}

const ORIGINS = 'https://app.example.com,https://admin.example.com';
const given = synth({
  ttsProvider: 'openai',
  alertEmail: 'oncall@example.com',
  logRetentionDays: '90',
  retainLogs: 'true',
  corsOrigins: ORIGINS,
});
const plain = synth({});

const envOf = (template: Template, serviceName: string) =>
  must(
    functionEnvs(template).find((v) => v.SERVICE_NAME === serviceName),
    `the ${serviceName} function`,
  );
const hostEnv = hostTaskEnv;

describe('deployment settings', () => {
  it('-c ttsProvider reaches the API and the host (both synthesise speech)', () => {
    expect(envOf(given.template, 'api').TTS_PROVIDER).toBe('openai');
    expect(hostEnv(given.template).TTS_PROVIDER).toBe('openai');
    expect(envOf(plain.template, 'api').TTS_PROVIDER).toBeUndefined();
  });

  it('-c alertEmail subscribes the address to the alarm topic', () => {
    const [topic] = Object.keys(given.template.findResources('AWS::SNS::Topic'));
    given.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
      TopicArn: { Ref: topic },
    });
    expect(Object.keys(plain.template.findResources('AWS::SNS::Subscription'))).toHaveLength(0);
  });

  it('every log group (functions, host, API access, VPC flow logs) follows the retention and removal settings', () => {
    const groups = Object.values(given.template.findResources('AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThanOrEqual(8);
    for (const g of groups) {
      expect(g.Properties.RetentionInDays).toBe(90);
      expect(g.DeletionPolicy).toBe('Retain');
    }
    const defaults = plain.template.findResources('AWS::Logs::LogGroup');
    for (const g of Object.values(defaults)) {
      expect(g.Properties.RetentionInDays).toBe(DEFAULT_LOG_RETENTION_DAYS);
      expect(g.DeletionPolicy).toBe('Delete');
    }
    // The flow log writes to one of these groups (not one CDK makes with two years and Retain).
    const flowLog = must(Object.values(plain.template.findResources('AWS::EC2::FlowLog'))[0], 'the flow log');
    expect(Object.keys(defaults)).toContain(flowLog.Properties.LogGroupName.Ref);
  });

  it('rejects a retention CloudWatch does not offer and an origin that is not one', () => {
    const ctx = (c: Record<string, string>) =>
      settingsFromContext(new App({ context: c, outdir: join(outRoot, String(apps++)) }));
    expect(() => ctx({ logRetentionDays: '31' })).toThrow(/logRetentionDays "31" must be one of .*30, 60/);
    expect(() => ctx({ corsOrigins: 'https://a.example/path' })).toThrow(/not an origin/);
    expect(ctx({ alarmEmail: 'a@example.com' }).alarmEmail).toBe('a@example.com');
  });

  it('CORS origins reach the API and the host; the media bucket lets pages read presigned files', () => {
    expect(envOf(given.template, 'api').CORS_ORIGINS).toBe(ORIGINS);
    expect(hostEnv(given.template).CORS_ORIGINS).toBe(ORIGINS);
    given.template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: ['*'] })],
      },
    });
    expect(envOf(plain.template, 'api').CORS_ORIGINS).toBeUndefined();
    expect(hostEnv(plain.template).CORS_ORIGINS).toBeUndefined();
    const bucket = must(
      Object.values(plain.template.findResources('AWS::S3::Bucket'))[0],
      'the media bucket',
    );
    expect(bucket.Properties.CorsConfiguration).toBeUndefined();
  });

  it('links: every process that makes or serves them has the link key and the public address; no other secret widens', () => {
    const linkKey = Object.keys(
      plain.template.findResources('AWS::SecretsManager::Secret', {
        Properties: { Description: Match.stringLikeRegexp('^HMAC key that signs and verifies the links') },
      }),
    );
    expect(linkKey).toHaveLength(1);
    for (const name of ['api', 'events', 'webhooks', 'chatbot', 'media']) {
      const vars = envOf(plain.template, name);
      expect(vars.LINK_SECRET_ARN, name).toEqual({ Ref: linkKey[0] });
      expect(JSON.stringify(vars.PUBLIC_BASE_URL), name).toContain('EdgeDistribution');
      expect(vars.JWT_SECRET_ARN === undefined || name === 'api', name).toBe(true);
    }
    expect(hostEnv(plain.template).LINK_SECRET_ARN).toEqual({ Ref: linkKey[0] });
    expect(JSON.stringify(hostEnv(plain.template).PUBLIC_BASE_URL)).toContain('EdgeDistribution');
  });

  it('cdk-nag stays clean with every setting given', () => {
    const findings = [
      ...Annotations.fromStack(given.stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...Annotations.fromStack(given.stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 120)}`);
    expect(findings).toEqual([]);
  });
});
