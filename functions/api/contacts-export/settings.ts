import { z } from '@hono/zod-openapi';
import { ValidationError } from '#shared/http/errors';
import { maskUrl, URL_MASK, unmaskUrl } from '#shared/http/mask-url';
import { exportSettingsKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { deleteTenantSecret, readTenantSecret, writeTenantSecret } from './secret.ts';

/*
 * A tenant's export targets (docs/exports.md, "Export settings"). They hold credentials (a database
 * password, a service-account key), so they are kept whole as the tenant's secret in Secrets Manager
 * (secret.ts), never in the data table; answered with the secrets masked.
 */

const SECRET = 'export-settings';

export const MASK = URL_MASK;

/** `schema.table` or `table`: letters, digits and underscores, starting with a letter or underscore. */
const TABLE_NAME = /^([A-Za-z_][A-Za-z0-9_]{0,62}\.)?[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export const ServiceAccountKey = z
  .object({
    type: z.string().optional(),
    client_email: z.string().min(3).max(320),
    private_key: z.string().min(1).max(10_000),
    private_key_id: z.string().max(200).optional(),
    token_uri: z.string().max(500).optional(),
  })
  .passthrough();

export const SqlTableSettings = z.object({
  connectionString: z
    .string()
    .min(1)
    .max(2000)
    .openapi({ description: '`postgres://user:password@host:5432/db?sslmode=require`' }),
  table: z
    .string()
    .regex(TABLE_NAME, 'a table name: letters, digits, underscores, optionally schema-qualified')
    .openapi({ example: 'whatsapp_contacts' }),
});

export const OnlineSheetSettings = z.object({
  spreadsheetId: z.string().regex(/^[A-Za-z0-9_-]{10,200}$/, 'a Google spreadsheet id'),
  sheetName: z.string().min(1).max(100).default('Sheet1'),
  serviceAccountKey: z
    .union([z.string().max(20_000), ServiceAccountKey])
    .openapi({ description: 'The service-account key JSON from Google Cloud (object or JSON string)' }),
});

export const SettingsInput = z.object({
  sqltable: SqlTableSettings.nullable().optional().openapi({ description: '`null` removes it' }),
  onlinesheet: OnlineSheetSettings.nullable().optional().openapi({ description: '`null` removes it' }),
});

export interface StoredSqlTable {
  connectionString: string;
  table: string;
}
export interface StoredOnlineSheet {
  spreadsheetId: string;
  sheetName: string;
  serviceAccountKey: z.infer<typeof ServiceAccountKey>;
}
export interface ExportSettings {
  sqltable?: StoredSqlTable;
  onlinesheet?: StoredOnlineSheet;
  updatedAt?: string;
}

export async function loadExportSettings(tenantId: string): Promise<ExportSettings> {
  const s =
    (await readTenantSecret<ExportSettings>(tenantId, SECRET)) ?? (await migrateStoredSettings(tenantId));
  return { sqltable: s?.sqltable, onlinesheet: s?.onlinesheet, updatedAt: s?.updatedAt };
}

/**
 * Settings saved by an earlier version lived in the data table: the first read moves them into the
 * tenant's secret and deletes the item.
 */
async function migrateStoredSettings(tenantId: string): Promise<ExportSettings | undefined> {
  const item = await dataTable.get<ExportSettings>(exportSettingsKey(tenantId), true);
  if (!item) return undefined;
  const s: ExportSettings = {
    sqltable: item.sqltable,
    onlinesheet: item.onlinesheet,
    updatedAt: item.updatedAt,
  };
  await writeTenantSecret(tenantId, SECRET, s);
  await dataTable.delete(exportSettingsKey(tenantId));
  return s;
}

function parseKey(v: string | z.infer<typeof ServiceAccountKey>): z.infer<typeof ServiceAccountKey> {
  let obj: unknown = v;
  if (typeof v === 'string') {
    try {
      obj = JSON.parse(v);
    } catch {
      throw new ValidationError(
        'onlinesheet.serviceAccountKey: not valid JSON',
        'onlinesheet.serviceAccountKey',
      );
    }
  }
  const r = ServiceAccountKey.safeParse(obj);
  if (!r.success)
    throw new ValidationError(
      'onlinesheet.serviceAccountKey: needs client_email and private_key (a service-account key JSON)',
      'onlinesheet.serviceAccountKey',
    );
  if (!r.data.private_key.includes('PRIVATE KEY'))
    throw new ValidationError(
      'onlinesheet.serviceAccountKey.private_key: not a PEM private key',
      'onlinesheet.serviceAccountKey',
    );
  return r.data;
}

function checkConnectionString(raw: string): void {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ValidationError(
      'sqltable.connectionString: not a postgres:// URL',
      'sqltable.connectionString',
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new ValidationError(
      'sqltable.connectionString: must start with postgres://',
      'sqltable.connectionString',
    );
  if (!u.hostname)
    throw new ValidationError('sqltable.connectionString: no host', 'sqltable.connectionString');
}

/**
 * Replaces the sections given (`null` removes one; a section not sent stays as it was). A
 * `connectionString` sent back masked (as GET shows it) keeps the stored secrets only while it
 * points at the same database (mask-url.ts).
 */
export async function saveExportSettings(
  tenantId: string,
  input: z.infer<typeof SettingsInput>,
): Promise<ExportSettings> {
  const current = await loadExportSettings(tenantId);
  const next: ExportSettings = { ...current, updatedAt: new Date().toISOString() };
  if (input.sqltable === null) delete next.sqltable;
  else if (input.sqltable) {
    checkConnectionString(input.sqltable.connectionString);
    const connectionString = unmaskUrl(
      input.sqltable.connectionString,
      current.sqltable?.connectionString,
      'sqltable.connectionString',
    );
    next.sqltable = { connectionString, table: input.sqltable.table };
  }
  if (input.onlinesheet === null) delete next.onlinesheet;
  else if (input.onlinesheet) {
    const k = input.onlinesheet.serviceAccountKey;
    const keepKey = keptServiceAccountKey(k, current.onlinesheet);
    next.onlinesheet = {
      spreadsheetId: input.onlinesheet.spreadsheetId,
      sheetName: input.onlinesheet.sheetName,
      serviceAccountKey: keepKey ?? parseKey(k),
    };
  }
  if (!next.sqltable && !next.onlinesheet) await deleteTenantSecret(tenantId, SECRET);
  else await writeTenantSecret(tenantId, SECRET, next);
  return next;
}

/**
 * The stored key, when the one sent is the masked form GET shows for it (same client_email, and no
 * other token_uri); undefined when a whole new key was sent.
 */
function keptServiceAccountKey(
  sent: string | z.infer<typeof ServiceAccountKey>,
  current: StoredOnlineSheet | undefined,
): z.infer<typeof ServiceAccountKey> | undefined {
  if (typeof sent !== 'object' || sent.private_key !== MASK) return undefined;
  const stored = current?.serviceAccountKey;
  if (
    stored &&
    sent.client_email === stored.client_email &&
    (sent.token_uri === undefined || sent.token_uri === stored.token_uri)
  )
    return stored;
  throw new ValidationError(
    'onlinesheet.serviceAccountKey: the private key is masked but the key differs from the stored one; send the whole key again',
    'onlinesheet.serviceAccountKey',
  );
}

/** The settings as answered: the connection string's password (user info or query) and the private key masked. */
export function maskedSettings(s: ExportSettings) {
  let sqltable: { connectionString: string; table: string } | null = null;
  if (s.sqltable) {
    sqltable = { connectionString: maskUrl(s.sqltable.connectionString), table: s.sqltable.table };
  }
  let onlinesheet: {
    spreadsheetId: string;
    sheetName: string;
    serviceAccountKey: { client_email: string; private_key_id?: string; private_key: string };
  } | null = null;
  if (s.onlinesheet) {
    const k = s.onlinesheet.serviceAccountKey;
    onlinesheet = {
      spreadsheetId: s.onlinesheet.spreadsheetId,
      sheetName: s.onlinesheet.sheetName,
      serviceAccountKey: {
        client_email: k.client_email,
        ...(k.private_key_id ? { private_key_id: `${k.private_key_id.slice(0, 4)}…` } : {}),
        private_key: MASK,
      },
    };
  }
  return { sqltable, onlinesheet, updatedAt: s.updatedAt ?? null };
}
