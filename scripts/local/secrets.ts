import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface LocalSecrets {
  ADMIN_API_KEY: string;
  JWT_SECRET: string;
}

/**
 * Local mode's admin key and JWT signing secret: taken from the environment, else read from
 * `<dataDir>/secrets.json`, else generated (and stored there when a data dir is given).
 */
export function localSecrets(dataDir?: string): LocalSecrets & { generatedAdminKey: boolean } {
  const file = dataDir ? join(dataDir, 'secrets.json') : undefined;
  const stored: Partial<LocalSecrets> =
    file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: LocalSecrets = {
    ADMIN_API_KEY:
      process.env.ADMIN_API_KEY ?? stored.ADMIN_API_KEY ?? `adm_${randomBytes(24).toString('hex')}`,
    JWT_SECRET: process.env.JWT_SECRET ?? stored.JWT_SECRET ?? randomBytes(48).toString('base64url'),
  };
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return { ...secrets, generatedAdminKey: !process.env.ADMIN_API_KEY };
}
