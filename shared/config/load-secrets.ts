import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { resetEnvCache } from './env.ts';

let loading: Promise<void> | undefined;

/**
 * In the cloud the JWT signing key lives in Secrets Manager (`JWT_SECRET_ARN`); this copies it into
 * `JWT_SECRET` so the rest of the code reads one variable everywhere. Locally JWT_SECRET is already
 * set and nothing is fetched. Call it before the first request is handled; it fetches once per process
 * (a failed fetch is retried on the next call instead of being cached).
 */
export async function loadSecrets(): Promise<void> {
  loading ??= fetchJwtSecret().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function fetchJwtSecret(): Promise<void> {
  const arn = process.env.JWT_SECRET_ARN;
  if (process.env.JWT_SECRET || !arn) return;
  const client = new SecretsManagerClient({ region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!SecretString) throw new Error(`secret ${arn} has no string value`);
    process.env.JWT_SECRET = SecretString;
  } finally {
    client.destroy();
  }
  // env() may have been read (and cached) before the key arrived.
  resetEnvCache();
}
