import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../aws/clients.ts';
import { names } from '../aws/names.ts';
import { chatbotBrainKey, chatbotIntentsKey, chatbotProfileKey, chatbotPromptKey } from '../store/keys.ts';
import { objectKey } from '../store/object-keys.ts';
import { dataTable } from '../store/tables.ts';
import type { Brain } from './brain-schema.ts';
import type { Intents } from './intents-schema.ts';
import { GLOBAL_KEY, PROFILE_NAMES, type ProfileName } from './session-keys.ts';

/**
 * The chatbot's knowledge per tenant (docs/chatbot.md, "Knowledge: brain, prompt, intents"): a brain
 * and a persona prompt per session key, one intents file and one profile per tenant. Documents are
 * stored gzipped in their DynamoDB item; one whose compressed form would not fit an item (400 KB)
 * goes to S3 under a content hash, with the item pointing at it. Callers validate before storing.
 */

/** Compressed documents up to this size stay in the item (DynamoDB's limit is 400 KB per item). */
const INLINE_MAX_BYTES = 300 * 1024;

export interface KnowledgeSource {
  /** Where the document was read from when it was given as a URL (kept for re-sync). */
  url?: string;
}

export interface DocumentMeta extends KnowledgeSource {
  /** The session key it is stored under. */
  key: string;
  source: 'direct' | 'remote';
  /** Content hash: changes exactly when the document does. */
  version: string;
  bytes: number;
  updatedAt: string;
}

interface StoredDoc {
  gz?: Uint8Array;
  s3Key?: string;
  version: string;
  bytes: number;
  source: 'direct' | 'remote';
  url?: string;
  updatedAt: string;
}

export const isProfileName = (v: unknown): v is ProfileName =>
  typeof v === 'string' && (PROFILE_NAMES as readonly string[]).includes(v);

const versionOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

async function encode(
  tenantId: string,
  kind: string,
  text: string,
): Promise<Pick<StoredDoc, 'gz' | 's3Key'>> {
  const gz = gzipSync(text);
  if (gz.byteLength <= INLINE_MAX_BYTES) return { gz };
  const s3Key = objectKey('knowledge', tenantId, kind, `${versionOf(text)}.json.gz`);
  await s3Client().send(
    new PutObjectCommand({
      Bucket: names.mediaBucket(),
      Key: s3Key,
      Body: gz,
      ContentType: 'application/json',
      ContentEncoding: 'gzip',
    }),
  );
  return { s3Key };
}

/**
 * Decoded documents by version: a stored version never changes, so a warm process reads it once.
 * Callers get the shared object: treat brains, prompts and intents as read-only.
 */
const decoded = new Map<string, unknown>();
const DECODED_MAX = 64;

async function decode<T>(item: StoredDoc): Promise<T> {
  const hit = decoded.get(item.version);
  if (hit !== undefined) return hit as T;
  let gz = item.gz;
  if (!gz && item.s3Key) {
    const got = await s3Client().send(new GetObjectCommand({ Bucket: names.mediaBucket(), Key: item.s3Key }));
    gz = await got.Body?.transformToByteArray();
  }
  if (!gz) throw new Error(`stored chatbot document ${item.version} has no content`);
  const value = JSON.parse(gunzipSync(gz).toString('utf8')) as T;
  if (decoded.size >= DECODED_MAX) decoded.clear();
  decoded.set(item.version, value);
  return value;
}

function metaOf(key: string, item: StoredDoc): DocumentMeta {
  return {
    key,
    source: item.source,
    version: item.version,
    bytes: item.bytes,
    updatedAt: item.updatedAt,
    ...(item.url ? { url: item.url } : {}),
  };
}

async function putDoc(
  k: { pk: string; sk: string },
  tenantId: string,
  kind: string,
  value: unknown,
  src: KnowledgeSource,
  extra: Record<string, unknown> = {},
): Promise<StoredDoc> {
  const text = JSON.stringify(value);
  const item: StoredDoc = {
    ...(await encode(tenantId, kind, text)),
    version: versionOf(text),
    bytes: Buffer.byteLength(text),
    source: src.url ? 'remote' : 'direct',
    ...(src.url ? { url: src.url } : {}),
    updatedAt: new Date().toISOString(),
  };
  await dataTable.put({ ...k, ...item, ...extra });
  return item;
}

/** The stored item of the first key that has one, in the order given. One GetItem per key, in parallel. */
async function firstOf(keys: string[], keyOf: (k: string) => { pk: string; sk: string }) {
  const items = await Promise.all(keys.map((k) => dataTable.get<StoredDoc>(keyOf(k))));
  const i = items.findIndex((x) => x !== undefined);
  const item = items[i];
  const key = keys[i];
  return item && key !== undefined ? { key, item } : undefined;
}

/** The keys to look at: those given, then 'global' if it is not among them. */
const withGlobal = (keys: string[]) => (keys.includes(GLOBAL_KEY) ? keys : [...keys, GLOBAL_KEY]);

// Brain

export async function putBrain(tenantId: string, key: string, brain: Brain, src: KnowledgeSource = {}) {
  return metaOf(key, await putDoc(chatbotBrainKey(tenantId, key), tenantId, 'brain', brain, src));
}

/** The brain stored under exactly this key. */
export async function getBrain(
  tenantId: string,
  key: string,
): Promise<{ brain: Brain; meta: DocumentMeta } | undefined> {
  const item = await dataTable.get<StoredDoc>(chatbotBrainKey(tenantId, key));
  return item ? { brain: await decode<Brain>(item), meta: metaOf(key, item) } : undefined;
}

/** The brain of the first key that has one (keys in precedence order), falling back to 'global'. */
export async function resolveBrain(
  tenantId: string,
  keys: string[],
): Promise<{ key: string; brain: Brain; meta: DocumentMeta } | undefined> {
  const hit = await firstOf(withGlobal(keys), (k) => chatbotBrainKey(tenantId, k));
  return hit && { key: hit.key, brain: await decode<Brain>(hit.item), meta: metaOf(hit.key, hit.item) };
}

// Prompt

export async function putPrompt(tenantId: string, key: string, prompt: string, src: KnowledgeSource = {}) {
  return metaOf(key, await putDoc(chatbotPromptKey(tenantId, key), tenantId, 'prompt', prompt, src));
}

/** The persona prompt of the first key that has one, falling back to 'global'. */
export async function resolvePrompt(
  tenantId: string,
  keys: string[],
): Promise<{ key: string; prompt: string; meta: DocumentMeta } | undefined> {
  const hit = await firstOf(withGlobal(keys), (k) => chatbotPromptKey(tenantId, k));
  return hit && { key: hit.key, prompt: await decode<string>(hit.item), meta: metaOf(hit.key, hit.item) };
}

// Intents and profile

/**
 * Stores the tenant's intents (already parsed by the `Intents` schema). `version` is a content hash;
 * `getIntents` answers the same object for the same version in a warm process, so consumers may
 * cache what they build from it by version or by identity.
 */
export async function putIntents(tenantId: string, intents: Intents, src: KnowledgeSource = {}) {
  const item = await putDoc(chatbotIntentsKey(tenantId), tenantId, 'intents', intents, src, {
    count: intents.intents.length,
  });
  return { ...metaOf(GLOBAL_KEY, item), count: intents.intents.length };
}

export async function getIntentsRecord(
  tenantId: string,
): Promise<{ intents: Intents; version: string; updatedAt: string } | undefined> {
  const item = await dataTable.get<StoredDoc>(chatbotIntentsKey(tenantId));
  if (!item) return undefined;
  return { intents: await decode<Intents>(item), version: item.version, updatedAt: item.updatedAt };
}

export async function getIntents(tenantId: string): Promise<Intents | undefined> {
  return (await getIntentsRecord(tenantId))?.intents;
}

/** The tenant's profile: set by `tenant` of the older brain/intents writes, or the intents' `meta.industry`. */
export async function tenantProfile(tenantId: string): Promise<ProfileName | undefined> {
  const item = await dataTable.get<{ profile?: string }>(chatbotProfileKey(tenantId));
  return isProfileName(item?.profile) ? item.profile : undefined;
}

export async function setTenantProfile(tenantId: string, profile: ProfileName): Promise<void> {
  await dataTable.put({ ...chatbotProfileKey(tenantId), profile, updatedAt: new Date().toISOString() });
}
