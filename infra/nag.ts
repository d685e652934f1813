import { Aspects, type Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks, NagSuppressions } from 'cdk-nag';

/**
 * cdk-nag's AwsSolutions rules over the stack, and the reason for each finding we keep. `cdk synth`
 * fails on any other error (infra/app.ts), and the stack test asserts there is none.
 */
export function checkWithNag(stack: Stack): void {
  Aspects.of(stack).add(new AwsSolutionsChecks({ verbose: true }));
  const at = (path: string) => `/${stack.node.path}/${path}`;
  const suppress = (
    path: string,
    id: string,
    reason: string,
    appliesTo?: Array<string | { regex: string }>,
  ) => NagSuppressions.addResourceSuppressionsByPath(stack, at(path), [{ id, reason, appliesTo }], true);

  // IAM5: wildcards in resources that name data the code addresses by key, and none in actions on data.
  NagSuppressions.addStackSuppressions(stack, [
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'Queries use the data table’s global secondary indexes (gsi1, gsi2): index/* is the indexes of that one table.',
      appliesTo: [{ regex: '/^Resource::<Tabledata[0-9A-F]+\\.Arn>\\/index\\/\\*$/' }],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'Objects are keyed per tenant and per message at run time (uploads/, media/, tts/, exports/…): the grant is the one bucket’s objects, with the exact S3 actions used (infra/grants.ts).',
      appliesTo: [{ regex: '/^Resource::<Bucketmedia[0-9A-F]+\\.Arn>\\/(extractions\\/)?\\*$/' }],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'Tenants’ own export credentials are secrets the API creates at run time under <prefix>/tenants/; it may touch no other secret.',
      appliesTo: [{ regex: '/^Resource::arn:.*:secretsmanager:.*:secret:[a-z0-9-]+\\/tenants\\/\\*$/' }],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'Writing to the function’s own log group: its streams are named by Lambda at run time (<log group ARN>:*).',
      appliesTo: [{ regex: '/^Resource::<[A-Za-z]+Logs[0-9A-F]+\\.Arn>:\\*$/' }],
    },
  ]);
  suppress(
    'ConnectionHost/Task/TaskRole/DefaultPolicy/Resource',
    'AwsSolutions-IAM5',
    'The auth table’s customer-managed key: DynamoDB needs data-key generation and re-encryption on that one key (the grant CDK makes for an encrypted table).',
    ['Action::kms:ReEncrypt*', 'Action::kms:GenerateDataKey*'],
  );
  suppress(
    'ConnectionHost/Task/ExecutionRole/DefaultPolicy/Resource',
    'AwsSolutions-IAM5',
    'ecr:GetAuthorizationToken has no resource-level permissions; pulling is limited to the image repository.',
    ['Resource::*'],
  );

  suppress(
    'Bucket-media/Resource',
    'AwsSolutions-S1',
    'Objects are reached only by the service’s roles and by the short-lived presigned links it issues; every API request is in the API access log. Server access logs would need a second bucket per deployment for little more.',
  );
  const why: Record<string, string> = {
    AiProviderKeys:
      'Third-party provider keys: rotated at the provider and written here by the operator (docs/deploy.md).',
    LinkSigningKey:
      'Rotating this key ends every link handed out (up to 7 days old); done by the operator when needed (docs/deploy.md, "Rotating secrets").',
  };
  why.EdgeOriginKey =
    'CloudFront holds its value in the distribution’s origin settings: rotating it means redeploying the stack with a new value (docs/deploy.md, "Rotating secrets").';
  for (const secret of [
    'JwtSigningKey',
    'AdminApiKey',
    'AiProviderKeys',
    'LinkSigningKey',
    'EdgeOriginKey',
  ]) {
    suppress(
      `${secret}/Resource`,
      'AwsSolutions-SMG4',
      why[secret] ??
        'Rotating this key invalidates every issued token or the first admin’s key; done by the operator when needed (docs/deploy.md, "Rotating secrets").',
    );
  }
  suppress(
    'ConnectionHost/Task/Resource',
    'AwsSolutions-ECS2',
    'The environment holds names and settings only (tables, queues, prefix, port); every secret is read from Secrets Manager at start.',
  );
  suppress(
    'ConnectionHost/Cluster/Resource',
    'AwsSolutions-ECS4',
    'Container Insights is a setting (-c containerInsights=true), off by default: about 30 custom metrics a month for per-task graphs. The host alarm and dashboard use the free load balancer and AWS/ECS metrics (healthy targets, service CPU and memory); docs/deploy.md, "Cost".',
  );
  suppress(
    'ConnectionHost/Alb/Resource',
    'AwsSolutions-ELB2',
    'The load balancer carries only the long-lived SSE streams and speech synthesis; the hosts log each stream they open and close, and ALB access logs need a region-bound bucket policy.',
  );
  suppress(
    'ConnectionHost/Alb/SecurityGroup/Resource',
    'AwsSolutions-EC23',
    'An internal load balancer with no public address: only the VPC routes to it, and CloudFront reaches it through its VPC origin, whose source addresses are CloudFront’s (a managed prefix list whose id differs by region and is unknown at synth).',
  );
  // The distribution (infra/edge.ts): an API's front door, not a content site.
  suppress(
    'Edge/Distribution/Resource',
    'AwsSolutions-CFR1',
    'No geo restriction: the service’s tenants and their clients are wherever their customers are; every request is authenticated.',
  );
  suppress(
    'Edge/Distribution/Resource',
    'AwsSolutions-CFR2',
    'No WAF web ACL by default (a fixed monthly cost per deployment); API Gateway throttles the API and the hosts cap streams per tenant. An operator may attach one (docs/deploy.md, "Public address and routing").',
  );
  suppress(
    'Edge/Distribution/Resource',
    'AwsSolutions-CFR3',
    'No CloudFront access logs: every API request is in the API access log and the hosts log each stream; standard logs need an ACL-enabled bucket.',
  );
  if (!stack.node.tryFindChild('Edge')?.node.tryFindChild('Certificate')) {
    suppress(
      'Edge/Distribution/Resource',
      'AwsSolutions-CFR4',
      'Without domainName the distribution answers on its own *.cloudfront.net name, whose certificate CloudFront fixes at TLSv1 minimum; with domainName and certificateArn the minimum is TLSv1.2_2021.',
    );
  }
  suppress(
    'HttpApi/DefaultRoute/Resource',
    'AwsSolutions-APIG4',
    'The API authenticates every request itself (JWT verified with jose, or the admin API key): docs/auth.md.',
  );
}
