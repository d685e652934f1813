import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Edge } from './edge.ts';
import type { ServiceSecrets } from './secrets.ts';

/**
 * The stack's outputs: what an operator and the deploy scripts read after `cdk deploy`
 * (docs/deploy.md). Named here together so their IDs, which scripts depend on, are seen at once.
 */
export function addOutputs(
  stack: Stack,
  o: { edge: Edge; tables: Record<string, dynamodb.Table>; media: s3.Bucket; secrets: ServiceSecrets },
) {
  new CfnOutput(stack, 'ApiUrl', {
    value: o.edge.publicBaseUrl,
    description: 'The public base URL of the API, the SSE streams, speech, links and /docs',
  });
  new CfnOutput(stack, 'StreamUrl', {
    value: o.edge.publicBaseUrl,
    description: 'Base URL of the SSE streams: the same public name as the API',
  });
  new CfnOutput(stack, 'DistributionDomainName', {
    value: o.edge.distribution.distributionDomainName,
    description: 'Where a CNAME (or Route 53 alias) of domainName points, when the stack does not create it',
  });
  new CfnOutput(stack, 'AdminApiKeySecretArn', { value: o.secrets.adminKey.secretArn });
  for (const [key, table] of Object.entries(o.tables)) {
    new CfnOutput(stack, `${key.charAt(0).toUpperCase()}${key.slice(1)}TableName`, {
      value: table.tableName,
    });
  }
  new CfnOutput(stack, 'MediaBucketName', { value: o.media.bucketName });
  new CfnOutput(stack, 'JwtSecretArn', { value: o.secrets.jwtSecret.secretArn });
  new CfnOutput(stack, 'LinkSecretArn', { value: o.secrets.linkSecret.secretArn });
  new CfnOutput(stack, 'AiKeysSecretArn', { value: o.secrets.aiKeys.secretArn });
}
