import type { Stack } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';

/**
 * The service's own secrets, each read by the fewest processes that need it (docs/deploy.md): kept
 * apart from the stack's wiring so who may read which key is granted where each process is made.
 */
export interface ServiceSecrets {
  jwtSecret: secretsmanager.Secret;
  adminKey: secretsmanager.Secret;
  aiKeys: secretsmanager.Secret;
  linkSecret: secretsmanager.Secret;
  edgeOriginKey: secretsmanager.Secret;
}

/** Creates the secrets directly in the stack (their logical IDs are the stack's own). */
export function serviceSecrets(stack: Stack): ServiceSecrets {
  // Secret names are generated: a deleted secret's name stays taken during its recovery window.
  const jwtSecret = new secretsmanager.Secret(stack, 'JwtSigningKey', {
    description: 'HS256 key that signs and verifies API tokens (loaded into JWT_SECRET at cold start)',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });

  const adminKey = new secretsmanager.Secret(stack, 'AdminApiKey', {
    description: 'The first admin API key (ADMIN_API_KEY), exchanged at POST /api/auth/token',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });

  // The model and speech providers' keys (docs/deploy.md, "AI keys"): created empty, filled by the
  // operator with `aws secretsmanager put-secret-value`; loaded by the functions at cold start.
  const aiKeys = new secretsmanager.Secret(stack, 'AiProviderKeys', {
    description:
      'JSON {ANTHROPIC_API_KEYS, AI_FALLBACK_API_KEYS, STT_API_KEY, SARVAM_API_KEY} (AI_KEYS_SECRET_ARN)',
    generateSecretString: {
      secretStringTemplate: JSON.stringify({
        ANTHROPIC_API_KEYS: '',
        AI_FALLBACK_API_KEYS: '',
        STT_API_KEY: '',
        SARVAM_API_KEY: '',
      }),
      generateStringKey: 'unused',
      excludePunctuation: true,
    },
  });
  // Signs the links the service hands out (shared/links): its own key, so the consumers that make
  // links never hold the token signing key.
  const linkSecret = new secretsmanager.Secret(stack, 'LinkSigningKey', {
    description: 'HMAC key that signs and verifies the links the service hands out (LINK_SECRET)',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  // The distribution sends it to API Gateway with every request; the API serves no request without
  // it (shared/http/edge-origin.ts), so no client goes around the public name.
  const edgeOriginKey = new secretsmanager.Secret(stack, 'EdgeOriginKey', {
    description: 'Sent by CloudFront to the API with every request (EDGE_ORIGIN_KEY)',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  return { jwtSecret, adminKey, aiKeys, linkSecret, edgeOriginKey };
}
