export interface BannerFacts {
  baseUrl: string;
  driver: string;
  adminApiKey: string;
  /** The key was made by local mode (now or by an earlier start), not supplied in ADMIN_API_KEY. */
  generatedAdminKey: boolean;
  dataDir: string;
}

/**
 * What `npm start` prints once the service is up. The admin key is shown only when local mode
 * generated it (the operator has no other way to learn it); a key supplied in ADMIN_API_KEY is the
 * operator's own and is never echoed to a terminal or a log file.
 */
export function banner(f: BannerFacts): string {
  const line = '─'.repeat(60);
  const admin = f.generatedAdminKey
    ? `${f.adminApiKey}  (generated, stored in ${f.dataDir}/secrets.json)`
    : '(from ADMIN_API_KEY, not shown)';
  return `
${line}
 Messaging session manager is running (driver: ${f.driver})
   API        ${f.baseUrl}
   Docs       ${f.baseUrl}/docs      OpenAPI ${f.baseUrl}/openapi.json
   Health     ${f.baseUrl}/health
   Admin key  ${admin}
   Data       ${f.dataDir}/
   Network    every server listens on 127.0.0.1 only (API, DynamoDB Local, S3/SQS, secrets)
 Ctrl-C stops everything; the next npm start keeps the data.
${line}
`;
}
