import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { must } from '../must.ts';
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

/** `<NAME>_ARN` → `<NAME>`: the JWT key, the admin API key and the edge origin key on the API function, the link key where links are made or served. */
const FROM_SECRETS = [
  ['JWT_SECRET_ARN', 'JWT_SECRET'],
  ['ADMIN_API_KEY_ARN', 'ADMIN_API_KEY'],
  ['LINK_SECRET_ARN', 'LINK_SECRET'],
  // The key CloudFront sends the API with every request (shared/http/edge-origin.ts).
  ['EDGE_ORIGIN_KEY_ARN', 'EDGE_ORIGIN_KEY'],
] as const;

/**
 * `AI_KEYS_SECRET_ARN`: one JSON secret of the model and speech providers' keys
 * (`{"ANTHROPIC_API_KEYS": "k1,k2", "AI_FALLBACK_API_KEYS": "", "STT_API_KEY": "", "SARVAM_API_KEY": ""}`);
 * each non-empty value fills the variable of that name unless the environment set it already.
 */
const JSON_SECRETS = ['AI_KEYS_SECRET_ARN'] as const;
const JSON_SECRET_KEYS = new Set([
  'ANTHROPIC_API_KEYS',
  'AI_FALLBACK_API_KEYS',
  'STT_API_KEY',
  'SARVAM_API_KEY',
]);

async function fetchJwtSecret(): Promise<void> {
  const wanted = FROM_SECRETS.filter(([arnVar, v]) => process.env[arnVar] && !process.env[v]);
  const jsonWanted = JSON_SECRETS.filter((arnVar) => process.env[arnVar]);
  if (wanted.length === 0 && jsonWanted.length === 0) return;
  // Bounded: an unreachable Secrets Manager must become a prompt 503, not a request that waits for
  // the function's timeout (functions/api/app.ts).
  const client = new SecretsManagerClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
  });
  try {
    for (const [arnVar, v] of wanted) {
      const arn = must(process.env[arnVar], arnVar);
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
      if (!SecretString) throw new Error(`secret ${arn} has no string value`);
      process.env[v] = SecretString;
    }
    for (const arnVar of jsonWanted) {
      const { SecretString } = await client.send(
        new GetSecretValueCommand({ SecretId: must(process.env[arnVar], arnVar) }),
      );
      let values: Record<string, unknown>;
      try {
        values = JSON.parse(SecretString ?? '{}') as Record<string, unknown>;
      } catch {
        throw new Error(`secret ${arnVar} is not a JSON object of keys`);
      }
      for (const [name, value] of Object.entries(values)) {
        if (!JSON_SECRET_KEYS.has(name) || typeof value !== 'string' || !value || process.env[name]) continue;
        process.env[name] = value;
      }
    }
  } finally {
    client.destroy();
  }
  // env() may have been read (and cached) before the key arrived.
  resetEnvCache();
}
