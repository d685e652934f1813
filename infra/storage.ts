import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
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
  const removalPolicy = retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
  // Rotated yearly by KMS; kept with the table, since without it the table cannot be read.
  const encryptionKey = def.ownKey
    ? new kms.Key(scope, `TableKey-${def.id}`, {
        description: `Encrypts the ${def.id} table (the linked accounts' keys)`,
        enableKeyRotation: true,
        removalPolicy,
      })
    : undefined;
  const table = new dynamodb.Table(scope, `Table-${def.id}`, {
    ...(encryptionKey ? { encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED, encryptionKey } : {}),
    partitionKey: attribute(def.partitionKey),
    sortKey: attribute(def.sortKey),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: def.ttlAttribute,
    deletionProtection: retain,
    removalPolicy,
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
  for (const { prefix, days } of def.expiring) {
    lifecycleRules.push({
      id: `expire-${prefix.replace(/\W/g, '')}`,
      prefix,
      expiration: Duration.days(days),
    });
  }
  return new s3.Bucket(scope, `Bucket-${def.id}`, {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    lifecycleRules,
    removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
}
