import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { BucketDef, KeyDef, TableDef } from '#shared/aws/resources';

function attribute(key: KeyDef): dynamodb.Attribute {
  return {
    name: key.name,
    type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
  };
}

/**
 * One table from its shared definition. Its name is generated (passed to the code as
 * `<ID>_TABLE_NAME`), so a table kept by an earlier `cdk destroy` (RETAIN) never blocks a redeploy.
 */
export function tableFrom(scope: Construct, def: TableDef, retain = true): dynamodb.Table {
  const table = new dynamodb.Table(scope, `Table-${def.id}`, {
    partitionKey: attribute(def.partitionKey),
    sortKey: attribute(def.sortKey),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: def.ttlAttribute,
    deletionProtection: retain,
    removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
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

/** One private, encrypted bucket from its shared definition; generated (globally unique) name. */
export function bucketFrom(scope: Construct, def: BucketDef, retain = true): s3.Bucket {
  const lifecycleRules: s3.LifecycleRule[] = [
    { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
  ];
  if (def.expiringPrefix) {
    // Backstop only: the service deletes uploads itself seconds after use.
    lifecycleRules.push({ id: 'expire-uploads', prefix: def.expiringPrefix, expiration: Duration.days(1) });
  }
  return new s3.Bucket(scope, `Bucket-${def.id}`, {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    lifecycleRules,
    removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
}
