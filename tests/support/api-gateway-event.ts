/**
 * An API Gateway (HTTP API, payload 2.0) event as it reaches the API Lambda's handler: one owner for
 * its shape, used by the tests that invoke the handler in process (tests/integration/api-handler)
 * and as the stack bundles it (tests/e2e/lambda-bundles).
 */
export function httpApiEvent(opts: {
  method?: string;
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string>;
  body?: string;
  userAgent?: string;
}) {
  const { method = 'GET', rawPath, rawQueryString = '', userAgent = 'test' } = opts;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: { host: 'api.example.test', ...opts.headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'api.example.test',
      requestId: `r${Math.random()}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent },
    },
    ...('body' in opts ? { body: opts.body } : {}),
    isBase64Encoded: false,
  };
}
