import { env } from '#shared/config/env';

/** Settings of the contacts export (docs/exports.md, "Contacts export"), from the service config. */
export function exportConfig() {
  const e = env();
  return {
    s3Threshold: e.CONTACTS_EXPORT_S3_THRESHOLD,
    sheetsBaseUrl: e.GOOGLE_SHEETS_BASE_URL.replace(/\/+$/, ''),
    tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
  };
}
