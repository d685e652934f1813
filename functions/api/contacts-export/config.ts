/**
 * Settings of the contacts export read from the environment (docs/exports.md, "Contacts export"):
 * - `CONTACTS_EXPORT_S3_THRESHOLD`: more rows than this and a `csv` export is written to S3 and
 *   answered with a download link (default 50,000).
 * - `GOOGLE_SHEETS_BASE_URL`, `GOOGLE_OAUTH_TOKEN_URL`: the Sheets API and Google's OAuth token
 *   endpoint (tests point them at a local fake).
 */
export function exportConfig() {
  const threshold = Number(process.env.CONTACTS_EXPORT_S3_THRESHOLD ?? '');
  return {
    s3Threshold: Number.isInteger(threshold) && threshold > 0 ? threshold : 50_000,
    sheetsBaseUrl: (process.env.GOOGLE_SHEETS_BASE_URL || 'https://sheets.googleapis.com').replace(
      /\/+$/,
      '',
    ),
    tokenUrl: process.env.GOOGLE_OAUTH_TOKEN_URL || 'https://oauth2.googleapis.com/token',
  };
}
