import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { LogSettings } from './log-groups.ts';

/**
 * What every function of the stack starts from (the API and each consumer): one place, so a new
 * function cannot miss the common environment or the data table grant.
 */
export interface FunctionBase {
  environment: Record<string, string>;
  dataTable: dynamodb.Table;
  media: s3.Bucket;
  logs: LogSettings;
}

/**
 * The data table only: only the connection host uses the auth table (the accounts' keys), so no
 * function is granted it.
 */
export function grantCommon(base: FunctionBase, fn: lambda.IFunction) {
  base.dataTable.grantReadWriteData(fn);
}

/** The given settings that are set, by name. */
export const pick = (from: Record<string, string>, ...keys: string[]) =>
  Object.fromEntries(keys.flatMap((k) => (from[k] ? [[k, from[k]]] : [])));
