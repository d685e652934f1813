import { PutObjectCommand } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { s3Client } from '../aws/clients.ts';
import { names } from '../aws/names.ts';
import { must } from '../must.ts';
import { extractionFeedPk, extractionKey, extractionsOf, orderKey } from '../store/keys.ts';
import { objectKey } from '../store/object-keys.ts';
import { dataTable } from '../store/tables.ts';

/**
 * Structured extraction (docs/extraction.md): what the model may answer through its tool. `found:
 * false` means the conversation holds no booking or lead (no record is written).
 */
export const ExtractionAnswer = z.object({
  found: z.boolean().describe('false when the conversation holds no booking or lead'),
  type: z.enum(['booking', 'lead']).optional(),
  name: z.string().trim().max(200).nullable().optional().describe("the customer's name, if said"),
  phone: z
    .string()
    .regex(/^\d{6,20}$/, 'digits only')
    .nullable()
    .optional()
    .describe("the customer's phone number, digits only"),
  what: z.string().trim().max(500).nullable().optional().describe('the service or product'),
  when: z.iso
    .datetime({ offset: true, local: true })
    .nullable()
    .optional()
    .describe('ISO 8601 date-time of the booking, null when none'),
  status: z.enum(['new', 'confirmed', 'changed', 'cancelled', 'inquiry']).optional(),
  notes: z.string().max(2000).nullable().optional(),
  confidence: z.number().min(0).max(1).optional(),
});
export type ExtractionAnswer = z.infer<typeof ExtractionAnswer>;

/** A stored record: one per session and chat, updated (version bumped) when the customer changes it. */
export const ExtractionRecord = z.object({
  recordId: z.string(),
  version: z.number().int().min(1),
  type: z.enum(['booking', 'lead']),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  what: z.string().nullable(),
  when: z.string().nullable(),
  status: z.enum(['new', 'confirmed', 'changed', 'cancelled', 'inquiry']),
  notes: z.string().nullable(),
  confidence: z.number().min(0).max(1),
  sourceMessageIds: z.array(z.string()),
  sessionId: z.string(),
  mobid: z.string().nullable(),
  chatId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExtractionRecord = z.infer<typeof ExtractionRecord>;

/** The tool the model is asked to call, with the answer's JSON schema. */
export const EXTRACTION_TOOL = {
  name: 'record_extraction',
  description:
    'Record the booking or lead the conversation contains (found=true with its fields), or found=false when there is none.',
  inputSchema: (({ $schema: _, ...schema }) => schema)(
    z.toJSONSchema(ExtractionAnswer, { io: 'input' }) as Record<string, unknown>,
  ),
};

/** The fields that make a record different from its previous version. */
const CONTENT = ['type', 'name', 'phone', 'what', 'when', 'status', 'notes'] as const;

interface StoredExtraction extends ExtractionRecord {
  pk: string;
  sk: string;
  /** Every session key of the session when written, so a key narrows the listing. */
  sessionKeys: string[];
}

/** The S3 key of one version's archived copy (tenant-scoped). */
export const extractionArchiveKey = (tenantId: string, recordId: string, version: number) =>
  objectKey('extractions', tenantId, recordId, `v${String(version).padStart(6, '0')}.json`);

export type SaveResult = { record: ExtractionRecord; changed: boolean };

/**
 * Stores the answer as the chat's record: a new record (version 1), or the next version of the
 * existing one when a field changed (a conditional write on the version, so two writers cannot both
 * win); an unchanged answer keeps the record as is. Each new version is archived to S3.
 */
export async function saveExtraction(p: {
  tenantId: string;
  sessionId: string;
  mobid?: string;
  chatId: string;
  sessionKeys: string[];
  answer: ExtractionAnswer & { type: 'booking' | 'lead' };
  sourceMessageIds: string[];
  now?: number;
}): Promise<SaveResult> {
  const key = extractionKey(p.tenantId, p.sessionId, p.chatId);
  const prev = await dataTable.get<StoredExtraction>(key, true);
  const a = p.answer;
  const content = {
    type: a.type,
    name: a.name ?? prev?.name ?? null,
    phone: a.phone ?? prev?.phone ?? null,
    what: a.what ?? prev?.what ?? null,
    when: a.when ?? (a.when === null ? null : (prev?.when ?? null)),
    status: a.status ?? (prev ? 'changed' : 'new'),
    notes: a.notes ?? prev?.notes ?? null,
  };
  if (prev && CONTENT.every((k) => prev[k] === content[k])) return { record: strip(prev), changed: false };
  const nowMs = p.now ?? Date.now();
  const at = new Date(nowMs).toISOString();
  const version = (prev?.version ?? 0) + 1;
  const recordId = prev?.recordId ?? `ext_${p.sessionId}_${Buffer.from(p.chatId).toString('base64url')}`;
  const record: ExtractionRecord = {
    recordId,
    version,
    ...content,
    confidence: a.confidence ?? 0.5,
    sourceMessageIds: [...new Set([...(prev?.sourceMessageIds ?? []), ...p.sourceMessageIds])].slice(-50),
    sessionId: p.sessionId,
    mobid: p.mobid ?? null,
    chatId: p.chatId,
    createdAt: prev?.createdAt ?? at,
    updatedAt: at,
  };
  const ok = await dataTable.update(
    key,
    {
      ...record,
      sessionKeys: p.sessionKeys,
      gsi1pk: extractionFeedPk(p.tenantId),
      gsi1sk: orderKey(nowMs, `${recordId}#v${version}`),
    },
    prev
      ? { condition: '#v = :v', names: { '#v': 'version' }, values: { ':v': prev.version } }
      : { condition: 'attribute_not_exists(pk)' },
  );
  if (!ok)
    return {
      record: strip(
        must(
          await dataTable.get<StoredExtraction>(key, true),
          'the extraction whose version failed the write',
        ),
      ),
      changed: false,
    };
  await s3Client().send(
    new PutObjectCommand({
      Bucket: names.mediaBucket(),
      Key: extractionArchiveKey(p.tenantId, recordId, version),
      Body: JSON.stringify(record),
      ContentType: 'application/json',
    }),
  );
  return { record, changed: true };
}

function strip(s: StoredExtraction): ExtractionRecord {
  return ExtractionRecord.parse(s);
}

/** The tenant's records, newest first; a session key (phone, id, mobid, profile) narrows, `global` is all. */
export async function listExtractions(tenantId: string, sessionKey: string): Promise<ExtractionRecord[]> {
  const items = await dataTable.query<StoredExtraction>(extractionsOf(tenantId));
  return items
    .filter((it) => sessionKey === 'global' || it.sessionKeys?.includes(sessionKey))
    .map(strip)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** Records updated after `after` (an order key of the extraction feed), oldest first. */
export async function extractionFeed(
  tenantId: string,
  after: string,
  limit?: number,
): Promise<Array<ExtractionRecord & { gsi1sk: string; sessionKeys: string[] }>> {
  const rows = await dataTable.query<StoredExtraction & { gsi1sk: string }>({
    index: 'gsi1',
    pk: extractionFeedPk(tenantId),
    skAfter: after,
    ascending: true,
    limit,
  });
  return rows.map((r) => ({ ...strip(r), gsi1sk: r.gsi1sk, sessionKeys: r.sessionKeys ?? [] }));
}
