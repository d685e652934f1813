import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkJsonContext } from './app-context.ts';
import { settingsFromContext } from './context.ts';
import { type Template as CostTemplate, idleCost, total } from './cost/estimate.ts';
import { HOST_DEFAULTS, hostSettingsFrom } from './host-settings.ts';
import { checkWithNag } from './nag.ts';
import { SessionManagerStack } from './stack.ts';

const from = (given: Record<string, string>) => hostSettingsFrom((k) => given[k]);

describe('host settings from -c values', () => {
  it('defaults: no NAT gateway, Graviton, half a vCPU and 1 GB, no Container Insights', () => {
    expect(from({})).toEqual(HOST_DEFAULTS);
    expect(HOST_DEFAULTS).toEqual({
      natGateway: false,
      architecture: 'arm64',
      cpu: 512,
      memoryMiB: 1024,
      containerInsights: false,
    });
  });

  it('takes each setting, and a CPU alone with its smallest memory', () => {
    expect(
      from({ natGateway: 'true', hostArchitecture: 'x86_64', hostCpu: '1024', containerInsights: 'true' }),
    ).toEqual({
      natGateway: true,
      architecture: 'x86_64',
      cpu: 1024,
      memoryMiB: 2048,
      containerInsights: true,
    });
    expect(from({ hostMemory: '3072' }).memoryMiB).toBe(3072);
  });

  it('refuses what Fargate or the flags do not offer, naming the setting', () => {
    expect(() => from({ hostCpu: '768' })).toThrow(/hostCpu/);
    expect(() => from({ hostMemory: '512' })).toThrow(
      /hostMemory "512" must be one of 1024, 2048, 3072, 4096/,
    );
    expect(() => from({ hostArchitecture: 'arm' })).toThrow(/hostArchitecture/);
    expect(() => from({ natGateway: 'yes' })).toThrow(/natGateway/);
  });
});

const outdir = mkdtempSync(join(tmpdir(), 'cdk-host-settings-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('the stack with the other choices (-c natGateway=true -c hostArchitecture=x86_64 ...)', () => {
  const app = new App({
    outdir,
    context: {
      ...cdkJsonContext(),
      prefix: 'hs',
      shardCount: '2',
      natGateway: 'true',
      hostArchitecture: 'x86_64',
      hostCpu: '1024',
      hostMemory: '2048',
      containerInsights: 'true',
    },
  });
  const stack = new SessionManagerStack(app, 'HostSettings', {
    ...settingsFromContext(app),
    stackName: 'hs',
  });
  checkWithNag(stack);
  const template = Template.fromStack(stack);

  it('private task subnets behind one NAT gateway, no public task address', () => {
    template.resourceCountIs('AWS::EC2::NatGateway', 1);
    template.hasResourceProperties('AWS::ECS::Service', {
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'DISABLED' }) },
    });
  });

  it('x86_64 tasks of the given size, Container Insights on', () => {
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '1024',
      Memory: '2048',
      RuntimePlatform: Match.objectLike({ CpuArchitecture: 'X86_64' }),
    });
    template.hasResourceProperties('AWS::ECS::Cluster', {
      ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }],
    });
  });

  it('is cdk-nag clean too, and costs what the old defaults cost (about $150 idle)', () => {
    const findings = [
      ...Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 120)}`);
    expect(findings).toEqual([]);
    const idle = total(
      idleCost(template.toJSON() as CostTemplate, { leaseTickMs: 2000, commandWaitSeconds: 20 }),
    );
    expect(idle).toBeGreaterThan(140);
  });
});
