import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type pg from 'pg';
import { env } from '#shared/config/env';
import { ServiceError } from '#shared/http/errors';
import { assertAllowedAddress } from '#shared/outbound/guard';
import { batches, type ExportRow } from './rows.ts';
import type { StoredSqlTable } from './settings.ts';

const BATCH = 500;

/**
 * The connection settings of a `postgres://` URL, with the host resolved here and every address it
 * resolves to checked by the webhooks' private-address guard (unless WEBHOOK_ALLOW_PRIVATE_TARGETS):
 * the client then dials the checked address, so DNS cannot change it in between. TLS (`sslmode`
 * `require`/`verify-full`) still verifies the certificate against the host name.
 */
export async function pgConfig(
  connectionString: string,
  allowPrivate = env().WEBHOOK_ALLOW_PRIVATE_TARGETS,
): Promise<pg.ClientConfig> {
  const u = new URL(connectionString);
  const host = decodeURIComponent(u.hostname).replace(/^\[|\]$/g, '');
  let address = host;
  if (!isIP(host)) {
    let all: { address: string }[];
    try {
      all = await lookup(host, { all: true });
    } catch {
      throw new ServiceError('UPSTREAM_UNAVAILABLE', `sqltable: the database host ${host} does not resolve`);
    }
    if (!all.length) throw new ServiceError('UPSTREAM_UNAVAILABLE', `sqltable: ${host} has no address`);
    for (const a of all) assertAllowedAddress(a.address, host, allowPrivate);
    address = (all[0] as { address: string }).address;
  } else assertAllowedAddress(host, host, allowPrivate);
  const sslmode = u.searchParams.get('sslmode') ?? 'prefer';
  const ssl =
    sslmode === 'disable' || sslmode === 'prefer' || sslmode === 'allow'
      ? false
      : {
          rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca',
          servername: isIP(host) ? undefined : host,
        };
  return {
    host: address,
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
    ssl,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 60_000,
    query_timeout: 65_000,
    application_name: 'wa-export',
  };
}

/** `schema.table` → `"schema"."table"` with the client's own identifier escaping. */
export function quotedTable(client: pg.Client, table: string): string {
  return table
    .split('.')
    .map((part) => client.escapeIdentifier(part))
    .join('.');
}

/**
 * Upserts the rows into the tenant's PostgreSQL table (created when missing), 500 rows per
 * parameterised statement, keyed by (session_id, phone_number): a second export updates the rows it
 * wrote before instead of adding copies.
 */
export async function upsertIntoPostgres(
  target: StoredSqlTable,
  rows: AsyncIterable<ExportRow>,
): Promise<{ table: string; written: number }> {
  const { default: Pg } = await import('pg'); // on first use (cold start)
  const client = new Pg.Client(await pgConfig(target.connectionString));
  // A server error after connecting arrives on the client; without a listener it would crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new ServiceError(
      'UPSTREAM_UNAVAILABLE',
      `sqltable: cannot connect to the database (${(err as Error).message.replace(/password[^,;]*/gi, 'password …')})`,
    );
  }
  let written = 0;
  try {
    const t = quotedTable(client, target.table);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${t} (
        session_id text NOT NULL,
        phone_number text NOT NULL,
        formatted_number text NOT NULL,
        name text NOT NULL,
        extracted_at timestamptz NOT NULL,
        PRIMARY KEY (session_id, phone_number)
      )`,
    );
    for await (const batch of batches(rows, BATCH)) {
      const params: string[] = [];
      const tuples = batch.map((r) => {
        const start = params.length;
        params.push(r.session_id, r.phone_number, r.formatted_number, r.name, r.extracted_at);
        return `($${start + 1}, $${start + 2}, $${start + 3}, $${start + 4}, $${start + 5})`;
      });
      // Column order of the VALUES: session_id, phone_number, formatted_number, name, extracted_at.
      await client.query(
        `INSERT INTO ${t} (session_id, phone_number, formatted_number, name, extracted_at) VALUES ${tuples.join(', ')}
         ON CONFLICT (session_id, phone_number) DO UPDATE SET
           formatted_number = EXCLUDED.formatted_number, name = EXCLUDED.name, extracted_at = EXCLUDED.extracted_at`,
        params,
      );
      written += batch.length;
    }
    return { table: target.table, written };
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    throw new ServiceError(
      'UPSTREAM_UNAVAILABLE',
      `sqltable: the database refused the export (${(err as Error).message})`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
