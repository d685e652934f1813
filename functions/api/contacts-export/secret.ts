import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { tenantSecretName } from '#shared/aws/resources';
import { env, runtimeEnv } from '#shared/config/env';

/**
 * One tenant's credentials of one kind, kept as a JSON secret in Secrets Manager
 * (`<prefix>/tenants/<tenant>/<purpose>`): never in the data table, never in a log. Locally the
 * same calls go to the local Secrets Manager that `npm start` runs (scripts/local/secrets-manager.ts).
 */
let client: SecretsManagerClient | undefined;
const secrets = () => {
  client ??= new SecretsManagerClient({ region: runtimeEnv().AWS_REGION });
  return client;
};

const nameOf = (tenantId: string, purpose: string) =>
  tenantSecretName(env().RESOURCE_PREFIX, tenantId, purpose);

/** The stored JSON, or undefined when the tenant has none. */
export async function readTenantSecret<T>(tenantId: string, purpose: string): Promise<T | undefined> {
  try {
    const r = await secrets().send(new GetSecretValueCommand({ SecretId: nameOf(tenantId, purpose) }));
    return r.SecretString ? (JSON.parse(r.SecretString) as T) : undefined;
  } catch (err) {
    if (err instanceof ResourceNotFoundException) return undefined;
    throw err;
  }
}

/** Stores `value` as the tenant's secret, creating it on first use. */
export async function writeTenantSecret(tenantId: string, purpose: string, value: unknown): Promise<void> {
  const SecretString = JSON.stringify(value);
  const SecretId = nameOf(tenantId, purpose);
  try {
    await secrets().send(new PutSecretValueCommand({ SecretId, SecretString }));
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
    await secrets().send(
      new CreateSecretCommand({
        Name: SecretId,
        SecretString,
        Description: `Credentials (${purpose}) of tenant ${tenantId}`,
        Tags: [{ Key: 'tenant', Value: tenantId }],
      }),
    );
  }
}

/**
 * Deletes the secret at once (no recovery window, so that saving again later can create it anew).
 * Nothing to delete is not an error.
 */
export async function deleteTenantSecret(tenantId: string, purpose: string): Promise<void> {
  try {
    await secrets().send(
      new DeleteSecretCommand({ SecretId: nameOf(tenantId, purpose), ForceDeleteWithoutRecovery: true }),
    );
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
}
