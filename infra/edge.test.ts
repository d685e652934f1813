import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_PATHS } from '#shared/host/paths';
import { EDGE_ORIGIN_HEADER, VIEWER_ADDRESS_HEADER } from '#shared/http/edge-origin';
import { must } from '#shared/must';
import { HEARTBEAT_MS } from '#shared/stream/routes';
import { cdkJsonContext } from './app-context.ts';
import { settingsFromContext } from './context.ts';
import { API_READ_TIMEOUT_SECONDS, STREAM_KEEPALIVE_SECONDS, STREAM_READ_TIMEOUT_SECONDS } from './edge.ts';
import { ALB_IDLE_TIMEOUT_SECONDS } from './host.ts';
import { checkWithNag } from './nag.ts';
import { SessionManagerStack } from './stack.ts';
import { functionEnvs, hostTaskEnv } from './template-queries.ts';

const outRoot = mkdtempSync(join(tmpdir(), 'cdk-edge-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));
let apps = 0;
const newApp = (context: Record<string, string>) =>
  new App({
    context: { ...cdkJsonContext(), prefix: 'edg', shardCount: '1', ...context },
    outdir: join(outRoot, String(apps++)),
  });

function synth(context: Record<string, string>, nag = false) {
  const app = newApp(context);
  const stack = new SessionManagerStack(app, `Edge${apps}`, {
    ...settingsFromContext(app),
    stackName: 'edg',
  });
  if (nag) checkWithNag(stack);
  return { stack, template: Template.fromStack(stack) };
}

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d';
const DOMAIN = { domainName: 'wa.example.com', certificateArn: CERT };
const named = synth({ ...DOMAIN, hostedZoneId: 'Z0123456789ABC', hostedZoneName: 'example.com' }, true);
const plain = synth({});

/** CloudFront's managed policies (ids fixed by AWS). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const distributionOf = (template: Template) => {
  const [id, d] = must(
    Object.entries(template.findResources('AWS::CloudFront::Distribution'))[0],
    'the CloudFront distribution',
  );
  return { id, config: d.Properties.DistributionConfig };
};
/** Every URL-bearing setting the service reads, from every function and the host. */
const urlSettings = (template: Template) => {
  const fns = functionEnvs(template);
  const host = hostTaskEnv(template);
  return [...fns, host].flatMap((vars) =>
    Object.entries(vars).filter(([k]) => /_URL$/.test(k) && !/^(ANTHROPIC|AI_FALLBACK|STT|SARVAM)_/.test(k)),
  );
};

describe('one public name: a CloudFront distribution in front of the API and the streams', () => {
  it('with domainName, every URL the service hands out or prints starts with it', () => {
    const urls = urlSettings(named.template);
    // PUBLIC_BASE_URL on the API, four consumers and the host; STREAM_BASE_URL on the API.
    expect(urls.map(([k]) => k).sort()).toEqual(
      [...Array(6).fill('PUBLIC_BASE_URL'), 'STREAM_BASE_URL'].sort(),
    );
    for (const [name, value] of urls) expect(value, name).toBe('https://wa.example.com');
    const outputs = named.template.findOutputs('*');
    expect(must(outputs.ApiUrl, 'output ApiUrl').Value).toBe('https://wa.example.com');
    expect(must(outputs.StreamUrl, 'output StreamUrl').Value).toBe('https://wa.example.com');
    // No output or setting leads a client to API Gateway's or the load balancer's own name.
    const printed = JSON.stringify([urls, outputs.ApiUrl, outputs.StreamUrl]);
    expect(printed).not.toMatch(/HttpApi|Alb|DNSName|execute-api|elb\.amazonaws/);
  });

  it('with domainName, the distribution answers on it with the us-east-1 certificate, TLS 1.2 or later', () => {
    const { config } = distributionOf(named.template);
    expect(config.Aliases).toEqual(['wa.example.com']);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: CERT,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('without domainName, the distribution’s own HTTPS name is the public name (never the load balancer)', () => {
    const { id, config } = distributionOf(plain.template);
    expect(config.Aliases).toBeUndefined();
    const own = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id, 'DomainName'] }]] };
    for (const [name, value] of urlSettings(plain.template)) expect(value, name).toEqual(own);
    const outputs = plain.template.findOutputs('*');
    expect(must(outputs.ApiUrl, 'output ApiUrl').Value).toEqual(own);
    expect(must(outputs.StreamUrl, 'output StreamUrl').Value).toEqual(own);
    expect(must(outputs.DistributionDomainName, 'output DistributionDomainName').Value).toEqual({
      'Fn::GetAtt': [id, 'DomainName'],
    });
  });

  it('stream and speech paths go to the load balancer, every other path to API Gateway; nothing cached, everything forwarded', () => {
    const { config } = distributionOf(named.template);
    const origins = config.Origins as Array<{
      Id: string;
      DomainName: unknown;
      CustomOriginConfig?: unknown;
      VpcOriginConfig?: unknown;
    }>;
    const api = must(
      origins.find((o) => JSON.stringify(o.DomainName).includes('execute-api')),
      'the API origin',
    );
    const hosts = must(
      origins.find((o) => o.VpcOriginConfig),
      'the hosts origin',
    );
    expect(origins).toHaveLength(2);
    expect(JSON.stringify(api.DomainName)).toMatch(/"Ref":"HttpApi/);
    expect(api.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
      OriginReadTimeout: API_READ_TIMEOUT_SECONDS,
    });
    expect(hosts.VpcOriginConfig).toMatchObject({
      OriginReadTimeout: STREAM_READ_TIMEOUT_SECONDS,
      OriginKeepaliveTimeout: STREAM_KEEPALIVE_SECONDS,
    });
    expect(JSON.stringify(hosts.DomainName)).toMatch(/Alb.*DNSName/);

    const passThrough = {
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']),
    };
    expect(config.DefaultCacheBehavior).toMatchObject({ ...passThrough, TargetOriginId: api.Id });
    const behaviours = config.CacheBehaviors as Array<Record<string, unknown>>;
    expect(behaviours.map((b) => b.PathPattern)).toEqual(HOST_PATHS);
    for (const b of behaviours) {
      expect(b, String(b.PathPattern)).toMatchObject({
        ...passThrough,
        TargetOriginId: hosts.Id,
        Compress: false,
      });
    }
  });

  it('API Gateway serves only the distribution: its key on every request, resolved at deploy; the viewer address written at the edge', () => {
    const { config } = distributionOf(named.template);
    const [keyId] = Object.keys(
      named.template.findResources('AWS::SecretsManager::Secret', {
        Properties: { Description: Match.stringLikeRegexp('^Sent by CloudFront to the API') },
      }),
    );
    const api = must(
      (config.Origins as Array<{ DomainName: unknown; OriginCustomHeaders?: unknown }>).find((o) =>
        JSON.stringify(o.DomainName).includes('execute-api'),
      ),
      'the API origin',
    );
    const headers = JSON.stringify(api.OriginCustomHeaders);
    expect(headers).toContain(`"HeaderName":"${EDGE_ORIGIN_HEADER}"`);
    // A dynamic reference to the key: its value is in no template.
    expect(headers).toMatch(new RegExp(`\\{\\{resolve:secretsmanager:.*"Ref":"${keyId}"`));
    const apiEnv = must(
      functionEnvs(named.template).find((v) => v.SERVICE_NAME === 'api'),
      'the api function',
    );
    expect(apiEnv.EDGE_ORIGIN_KEY_ARN).toEqual({ Ref: keyId });

    const [fnId, fn] = must(
      Object.entries(named.template.findResources('AWS::CloudFront::Function'))[0],
      'the CloudFront function',
    );
    expect(fn.Properties.FunctionCode).toContain(
      `headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip }`,
    );
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
  });

  it('the load balancer is internal and reached through a VPC origin over its one HTTP listener', () => {
    named.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', { Scheme: 'internal' });
    const [lbId] = Object.keys(named.template.findResources('AWS::ElasticLoadBalancingV2::LoadBalancer'));
    named.template.hasResourceProperties('AWS::CloudFront::VpcOrigin', {
      VpcOriginEndpointConfig: Match.objectLike({
        Arn: { Ref: lbId },
        HTTPPort: 80,
        OriginProtocolPolicy: 'http-only',
      }),
    });
  });

  it('stream timeouts: heartbeats well inside CloudFront’s read timeout; CloudFront lets go of idle connections first', () => {
    expect(STREAM_READ_TIMEOUT_SECONDS * 1000).toBeGreaterThanOrEqual(3 * HEARTBEAT_MS);
    // The quota CloudFront grants a VPC origin without an increase.
    expect(STREAM_READ_TIMEOUT_SECONDS).toBeLessThanOrEqual(120);
    expect(STREAM_KEEPALIVE_SECONDS).toBeLessThan(ALB_IDLE_TIMEOUT_SECONDS);
    expect(ALB_IDLE_TIMEOUT_SECONDS * 1000).toBeGreaterThan(HEARTBEAT_MS);
  });

  it('with a hosted zone, A and AAAA alias records point the name at the distribution; none otherwise', () => {
    const { id } = distributionOf(named.template);
    const records = Object.values(named.template.findResources('AWS::Route53::RecordSet'));
    expect(records.map((r) => r.Properties.Type).sort()).toEqual(['A', 'AAAA']);
    for (const r of records) {
      expect(r.Properties).toMatchObject({
        Name: 'wa.example.com.',
        HostedZoneId: 'Z0123456789ABC',
        AliasTarget: { DNSName: { 'Fn::GetAtt': [id, 'DomainName'] } },
      });
    }
    expect(Object.keys(plain.template.findResources('AWS::Route53::RecordSet'))).toHaveLength(0);
  });

  it('cdk-nag stays clean with a domain and a hosted zone', () => {
    const findings = [
      ...Annotations.fromStack(named.stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...Annotations.fromStack(named.stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 120)}`);
    expect(findings).toEqual([]);
  });
});

describe('domain settings', () => {
  const read = (c: Record<string, string>) => settingsFromContext(newApp(c));

  it('reads the name, its certificate and its zone', () => {
    expect(read({ ...DOMAIN, hostedZoneId: 'Z1', hostedZoneName: 'example.com.' })).toMatchObject({
      domainName: 'wa.example.com',
      certificateArn: CERT,
      hostedZone: { id: 'Z1', name: 'example.com' },
    });
    expect(read({ domainName: 'WA.Example.com.', certificateArn: CERT }).domainName).toBe('wa.example.com');
  });

  it('refuses what would deploy a name no certificate or zone covers', () => {
    expect(() => read({ domainName: 'wa.example.com' })).toThrow(/needs certificateArn/);
    expect(() =>
      read({
        domainName: 'wa.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/x',
      }),
    ).toThrow(/us-east-1/);
    expect(() => read({ certificateArn: CERT })).toThrow(/need domainName/);
    expect(() => read({ ...DOMAIN, hostedZoneId: 'Z1' })).toThrow(/go together/);
    expect(() => read({ ...DOMAIN, hostedZoneId: 'Z1', hostedZoneName: 'other.org' })).toThrow(
      /not in the hosted zone/,
    );
    expect(() => read({ domainName: 'https://wa.example.com', certificateArn: CERT })).toThrow(
      /not a host name/,
    );
  });
});
