import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json, StringList } from '#shared/http/schemas';
import { SettingsInput } from './settings.ts';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

const ExportBody = z.object({
  exportType: z.enum(['csv', 'onlinesheet', 'sqltable']),
  sessionIds: StringList.optional().openapi({
    description:
      'Session ids, mobids or numbers: an array or a comma-separated string; default every active session',
  }),
  mobile: z.string().max(40).optional().openapi({ description: 'One connected number: only its contacts' }),
  bom: z.boolean().optional().openapi({ description: 'csv: start with a UTF-8 byte-order mark (Excel)' }),
  delivery: z.enum(['auto', 'inline', 's3']).optional().openapi({
    description:
      'csv: `inline` streams the file in the response, `s3` answers a download link, `auto` (default) links when there are more rows than CONTACTS_EXPORT_S3_THRESHOLD',
  }),
});

export const exportRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['leads'],
  security: bearer,
  summary:
    'Export the deduplicated contacts as CSV, into a Google Sheet or a PostgreSQL table (docs/exports.md)',
  request: { body: { required: true, content: { 'application/json': { schema: ExportBody } } } },
  responses: {
    200: {
      description: 'CSV file, or a JSON summary (S3 link, sheet or table written)',
      content: {
        'text/csv': { schema: z.string() },
        'application/json': {
          schema: z.object({
            success: z.literal(true),
            exportType: z.string(),
            targetSessions: z.array(z.string()),
            totalContacts: z.number().int(),
            downloadUrl: z.string().optional(),
            expiresIn: z.number().int().optional(),
            table: z.string().optional(),
            spreadsheetId: z.string().optional(),
            updatedRanges: z.array(z.string()).optional(),
          }),
        },
      },
    },
    ...errorResponses,
  },
});

const SettingsOut = z.object({
  success: z.literal(true),
  settings: z.object({
    sqltable: z.object({ connectionString: z.string(), table: z.string() }).nullable(),
    onlinesheet: z
      .object({
        spreadsheetId: z.string(),
        sheetName: z.string(),
        serviceAccountKey: z.object({ client_email: z.string(), private_key: z.string() }).passthrough(),
      })
      .nullable(),
    updatedAt: z.string().nullable(),
  }),
});

export const getSettingsRoute = createRoute({
  method: 'get',
  path: '/settings',
  tags: ['leads'],
  security: bearer,
  summary: 'The tenant’s export targets (secrets masked)',
  responses: { 200: json(SettingsOut), ...errorResponses },
});

export const putSettingsRoute = createRoute({
  method: 'put',
  path: '/settings',
  tags: ['leads'],
  security: bearer,
  summary: 'Set the tenant’s export targets (PostgreSQL table, Google Sheet)',
  request: { body: { required: true, content: { 'application/json': { schema: SettingsInput } } } },
  responses: { 200: json(SettingsOut), ...errorResponses },
});
