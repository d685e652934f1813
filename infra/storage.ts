import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { type BucketDef, bucketName, type KeyDef, type TableDef, tableName } from '#shared/aws/resources';

function attribute(key: KeyDef): dynamodb.Attribute {
  return {
    name: key.name,
    type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
  };
}

/** One table from its shared definition. Data outlives the stack (RETAIN). */
export function tableFrom(scope: Construct, prefix: string, def: TableDef): dynamodb.Table {
  const table = new dynamodb.Table(scope, `Table-${def.id}`, {
    tableName: tableName(prefix, def),
    partitionKey: attribute(def.partitionKey),
    sortKey: attribute(def.sortKey),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: def.ttlAttribute,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of def.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: attribute(index.partitionKey),
      sortKey: attribute(index.sortKey),
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
  return table;
}

/** One private, encrypted bucket from its shared definition. */
export function bucketFrom(scope: Construct, prefix: string, def: BucketDef): s3.Bucket {
  const lifecycleRules: s3.LifecycleRule[] = [
    { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
  ];
  if (def.expiringPrefix) {
    // Backstop only: the service deletes uploads itself seconds after use.
    lifecycleRules.push({ id: 'expire-uploads', prefix: def.expiringPrefix, expiration: Duration.days(1) });
  }
  return new s3.Bucket(scope, `Bucket-${def.id}`, {
    bucketName: bucketName(prefix, def),
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    lifecycleRules,
    removalPolicy: RemovalPolicy.RETAIN,
  });
}
