import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env, resetEnvCache } from '#shared/config/env';
import { loadSecrets } from '#shared/config/load-secrets';
import { type LocalSecretsManager, startSecretsManager } from '../../scripts/local/secrets-manager.ts';
import { must } from '../support/must.ts';

/**
 * Cold-start secret loading as a function runs it in the cloud, against the local Secrets Manager:
 * the AI keys secret is one JSON object whose non-empty values fill the provider key variables.
 */
let sm: LocalSecretsManager;
const saved = { ...process.env };

beforeAll(async () => {
  sm = await startSecretsManager();
  process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = sm.url;
});

afterAll(async () => {
  process.env = saved;
  resetEnvCache();
  await sm.stop();
});

describe('loadSecrets', () => {
  it('fills the provider keys from the AI keys secret, leaves empty ones unset and a set variable alone', async () => {
    const client = new SecretsManagerClient({ region: 'us-east-1' });
    const created = await client.send(
      new CreateSecretCommand({
        Name: `ai-keys-${Date.now()}`,
        SecretString: JSON.stringify({
          ANTHROPIC_API_KEYS: 'sk-a,sk-b',
          AI_FALLBACK_API_KEYS: '',
          STT_API_KEY: 'stt-1',
          SOMETHING_ELSE: 'ignored',
        }),
      }),
    );
    for (const k of [
      'ANTHROPIC_API_KEYS',
      'AI_FALLBACK_API_KEYS',
      'SOMETHING_ELSE',
      'JWT_SECRET_ARN',
      'ADMIN_API_KEY_ARN',
    ])
      delete process.env[k];
    process.env.STT_API_KEY = 'from-env';
    process.env.AI_KEYS_SECRET_ARN = must(created.ARN, 'created.ARN');
    await loadSecrets();
    expect(process.env.ANTHROPIC_API_KEYS).toBe('sk-a,sk-b');
    expect(env().ANTHROPIC_API_KEYS).toBe('sk-a,sk-b');
    expect(process.env.AI_FALLBACK_API_KEYS).toBeUndefined();
    expect(process.env.SOMETHING_ELSE).toBeUndefined();
    expect(process.env.STT_API_KEY).toBe('from-env');
  });
});
