import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';

/*
 * The media bucket's grants, action by action: CDK's `grantRead`/`grantReadWrite` give wildcard
 * actions (`s3:GetObject*`, `s3:List*`, `s3:DeleteObject*`, `s3:Abort*`) that the code never needs.
 */

/** `s3:GetObject` on the bucket's objects (or under `prefix`). */
export function grantMediaRead(bucket: s3.IBucket, grantee: iam.IGrantable, prefix = '') {
  return iam.Grant.addToPrincipal({
    grantee,
    actions: ['s3:GetObject'],
    resourceArns: [bucket.arnForObjects(`${prefix}*`)],
  });
}

/** Put, delete and multipart uploads (`@aws-sdk/lib-storage` aborts a failed one) under `prefix`. */
export function grantMediaWrite(bucket: s3.IBucket, grantee: iam.IGrantable, prefix = '') {
  return iam.Grant.addToPrincipal({
    grantee,
    actions: ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
    resourceArns: [bucket.arnForObjects(`${prefix}*`)],
  });
}

/**
 * Reading and writing every object, plus `s3:ListBucket` on the bucket: `/health` checks it with
 * HeadBucket, and with it a missing object reads as 404 rather than 403.
 */
export function grantMediaReadWrite(bucket: s3.IBucket, grantee: iam.IGrantable) {
  grantMediaRead(bucket, grantee);
  grantMediaWrite(bucket, grantee);
  return iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [bucket.bucketArn] });
}
