import { importPKCS8, SignJWT } from 'jose';
import { ServiceError } from '#shared/http/errors';
import { guardedFetch } from '#shared/outbound/guard';
import { exportConfig } from './config.ts';
import { batches, EXPORT_COLUMNS, type ExportRow } from './rows.ts';
import type { StoredOnlineSheet } from './settings.ts';

const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** Rows per append request (each request stays well under the API's 10 MB payload limit). */
const BATCH = 1000;

/**
 * An access token for the service account: Google's OAuth 2.0 JWT-bearer flow (an RS256-signed
 * assertion with the account's private key, exchanged at the token endpoint).
 */
export async function serviceAccountToken(
  key: StoredOnlineSheet['serviceAccountKey'],
  tokenUrl = exportConfig().tokenUrl,
): Promise<string> {
  let signingKey: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    signingKey = await importPKCS8(key.private_key, 'RS256');
  } catch {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'onlinesheet: the service-account private key cannot be read',
      {
        field: 'onlinesheet.serviceAccountKey',
      },
    );
  }
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(key.private_key_id ? { kid: key.private_key_id } : {}),
    })
    .setIssuer(key.client_email)
    .setAudience(tokenUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(signingKey);
  const res = await guardedFetch(
    tokenUrl,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
    },
    { maxBytes: 64 * 1024, timeoutMs: 15_000 },
  );
  const body = (await res.json().catch(() => ({}))) as {
    access_token?: string;
    error_description?: string;
    error?: string;
  };
  if (!res.ok || !body.access_token)
    throw new ServiceError(
      'UPSTREAM_UNAVAILABLE',
      `onlinesheet: Google refused the service account (${res.status} ${body.error_description ?? body.error ?? ''})`.trim(),
    );
  return body.access_token;
}

async function sheetsCall(token: string, url: string, init: { method: string; body?: unknown }) {
  const res = await guardedFetch(
    url,
    {
      method: init.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    },
    { maxBytes: 1024 * 1024, timeoutMs: 30_000 },
  );
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const msg = (body.error as { message?: string } | undefined)?.message ?? '';
    throw new ServiceError(
      'UPSTREAM_UNAVAILABLE',
      `onlinesheet: the Sheets API answered ${res.status} ${msg}`.trim(),
    );
  }
  return body;
}

/**
 * Appends the rows to the sheet (`values.append`, `valueInputOption=RAW` so no cell is evaluated as a
 * formula, `insertDataOption=INSERT_ROWS`), 1,000 rows per request. A header row goes first when the
 * sheet's first row is empty.
 */
export async function appendToSheet(
  target: StoredOnlineSheet,
  rows: AsyncIterable<ExportRow>,
): Promise<{ updatedRanges: string[] }> {
  const token = await serviceAccountToken(target.serviceAccountKey);
  const base = `${exportConfig().sheetsBaseUrl}/v4/spreadsheets/${encodeURIComponent(target.spreadsheetId)}/values`;
  const sheet = `'${target.sheetName.replace(/'/g, "''")}'`;
  const first = await sheetsCall(token, `${base}/${encodeURIComponent(`${sheet}!A1:E1`)}`, { method: 'GET' });
  let header = !Array.isArray(first.values) || first.values.length === 0;
  const updatedRanges: string[] = [];
  const url = `${base}/${encodeURIComponent(`${sheet}!A1`)}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`;
  for await (const batch of batches(rows, BATCH)) {
    const values = batch.map((r) => EXPORT_COLUMNS.map((k) => r[k]));
    if (header) values.unshift([...EXPORT_COLUMNS]);
    header = false;
    const r = await sheetsCall(token, url, { method: 'POST', body: { majorDimension: 'ROWS', values } });
    const range = (r.updates as { updatedRange?: string } | undefined)?.updatedRange;
    if (range) updatedRanges.push(range);
  }
  return { updatedRanges };
}
