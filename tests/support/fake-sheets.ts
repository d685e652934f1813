import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { importSPKI, jwtVerify } from 'jose';

/**
 * A local stand-in for Google's OAuth token endpoint and the Sheets API `values` calls, as a real HTTP
 * server. Tests register a service account's public key (`POST /_control/accounts`); `POST /token`
 * verifies the RS256 JWT-bearer assertion against it (issuer, audience, scope, expiry) before issuing
 * an access token; the Sheets calls require that token and are recorded (`GET /_control/requests`).
 */
export interface RecordedSheetsCall {
  method: string;
  spreadsheetId: string;
  range: string;
  query: Record<string, string>;
  body: unknown;
  account: string;
}

export async function startFakeSheets() {
  const accounts = new Map<string, string>(); // client_email → SPKI PEM
  const tokens = new Map<string, string>(); // access token → client_email
  const sheets = new Map<string, unknown[][]>(); // spreadsheetId → rows
  const calls: RecordedSheetsCall[] = [];
  const tokenRequests: { iss: string; ok: boolean; error?: string }[] = [];
  let url = '';

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const u = new URL(req.url ?? '/', 'http://x');
      const text = await readBody(req);
      if (req.method === 'POST' && u.pathname === '/_control/accounts') {
        const b = JSON.parse(text) as { client_email: string; publicKeyPem: string };
        accounts.set(b.client_email, b.publicKeyPem);
        return send(200, { ok: true });
      }
      if (req.method === 'GET' && u.pathname === '/_control/requests')
        return send(200, { calls, tokenRequests, sheets: Object.fromEntries(sheets) });
      if (req.method === 'POST' && u.pathname === '/token') {
        const form = new URLSearchParams(text);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
          return send(400, { error: 'unsupported_grant_type' });
        const assertion = form.get('assertion') ?? '';
        const iss = JSON.parse(
          Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString() || '{}',
        ).iss;
        const pem = accounts.get(iss);
        if (!pem) {
          tokenRequests.push({ iss, ok: false, error: 'unknown account' });
          return send(400, { error: 'invalid_grant', error_description: 'unknown service account' });
        }
        try {
          const { payload } = await jwtVerify(assertion, await importSPKI(pem, 'RS256'), {
            issuer: iss,
            audience: `${url}/token`,
            algorithms: ['RS256'],
          });
          if (payload.scope !== 'https://www.googleapis.com/auth/spreadsheets') throw new Error('scope');
          if (!payload.exp || payload.exp - Math.floor(Date.now() / 1000) > 3600) throw new Error('exp');
        } catch (err) {
          tokenRequests.push({ iss, ok: false, error: (err as Error).message });
          return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        }
        tokenRequests.push({ iss, ok: true });
        const token = `ya29.${randomBytes(16).toString('hex')}`;
        tokens.set(token, iss);
        return send(200, { access_token: token, token_type: 'Bearer', expires_in: 3599 });
      }
      const m = /^\/v4\/spreadsheets\/([^/]+)\/values\/(.+)$/.exec(u.pathname);
      if (m) {
        const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
        if (!account)
          return send(401, {
            error: { code: 401, message: 'Request had invalid authentication credentials.' },
          });
        const spreadsheetId = decodeURIComponent(m[1] as string);
        const append = (m[2] as string).endsWith(':append');
        const range = decodeURIComponent((m[2] as string).replace(/:append$/, ''));
        const body = text ? JSON.parse(text) : undefined;
        calls.push({
          method: req.method ?? '',
          spreadsheetId,
          range,
          query: Object.fromEntries(u.searchParams),
          body,
          account,
        });
        const rows = sheets.get(spreadsheetId) ?? [];
        sheets.set(spreadsheetId, rows);
        if (req.method === 'GET' && !append)
          return send(200, {
            range,
            majorDimension: 'ROWS',
            ...(rows.length ? { values: rows.slice(0, 1) } : {}),
          });
        if (req.method === 'POST' && append) {
          const values = (body as { values: unknown[][] }).values;
          const start = rows.length + 1;
          rows.push(...values);
          const sheet = range.split('!')[0];
          return send(200, {
            spreadsheetId,
            updates: { updatedRange: `${sheet}!A${start}:E${rows.length}`, updatedRows: values.length },
          });
        }
      }
      send(404, { error: { code: 404, message: 'not found' } });
    } catch (err) {
      send(500, { error: { code: 500, message: (err as Error).message } });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
