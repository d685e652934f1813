import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json, StringList } from '#shared/http/schemas';
import { ExportedGroup } from '../leads/group-export.ts';

/**
 * The definitions of the administrative export routes (export-routes.ts), which also make
 * /openapi.json.
 */

const Params = {
  format: z.enum(['json', 'csv']).optional().openapi({ description: '`json` (default) or `csv`' }),
  sessionIds: StringList.optional().openapi({
    type: 'string',
    description: 'Session ids, mobids or numbers (array, or comma-separated); default: every active session',
  }),
  sessionId: z.string().max(200).optional().openapi({ description: 'One session id, mobid or number' }),
  tenantId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Tenant to export; default the admin tenant' }),
  bom: z.boolean().optional().openapi({ description: 'CSV only: start with a UTF-8 byte-order mark' }),
};
export const BodySchema = z.object(Params);
export const QuerySchema = z.object({
  ...Params,
  bom: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .openapi({ description: 'CSV only: UTF-8 byte-order mark' }),
});

const ExportedContact = z
  .object({
    Name: z.string(),
    Number: z.string().openapi({ example: '+91 98765 43210' }),
    RawNumber: z.string().openapi({ example: '919876543210' }),
    LastMsgOn: z
      .string()
      .openapi({ description: '`YYYY-MM-DD HH:MM:SS`, UTC; empty when no message is stored' }),
    Session: z.string().openapi({ description: 'Session id' }),
  })
  .openapi('ExportedContact');

const csvResponse = {
  'text/csv': { schema: z.string().openapi({ description: 'CSV with a header row (docs/exports.md)' }) },
};

function exportRoute(path: string, summary: string, envelope: z.ZodType) {
  return createRoute({
    method: 'post',
    path,
    tags: ['admin'],
    security: bearer,
    summary,
    request: {
      query: QuerySchema,
      body: { required: false, content: { 'application/json': { schema: BodySchema } } },
    },
    responses: {
      200: { description: 'OK', content: { ...json(envelope).content, ...csvResponse } },
      ...errorResponses,
    },
  });
}

export const contactsRoute = exportRoute(
  '/contacts',
  'Export the deduplicated contacts of a tenant’s sessions as JSON or CSV (admin only)',
  z.object({ success: z.literal(true), totalContacts: z.number().int(), contacts: z.array(ExportedContact) }),
);
export const groupsRoute = exportRoute(
  '/groups',
  'Export the groups of a tenant’s sessions with their members as JSON or CSV (admin only)',
  z.object({ success: z.literal(true), totalGroups: z.number().int(), groups: z.array(ExportedGroup) }),
);
