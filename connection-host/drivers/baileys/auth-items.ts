import { gunzipSync, gzipSync } from 'node:zlib';
import { BatchGetItemCommand, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { BufferJSON } from '@whiskeysockets/baileys';
import { dynamoClient } from '#shared/aws/clients';
import { fromAttr, type Item, TRANSACTION_MAX_ITEMS, toAttr } from '#shared/store/db';
import { authPartSk } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import type { LeaseGuard } from '../../leases.ts';
import { epochCheck, FencedOutError, holdsSession } from '../../session-fence.ts';

/**
 * Item layout of one auth-state value (`pk = AUTH#<sessionId>`, `sk = creds | <type>#<id>`):
 * - `v`: the JSON (BufferJSON replacer) when it is at most 64 KiB;
 * - `z`: the gzipped JSON when larger;
 * - `parts`: when even gzipped it exceeds what fits in a 400 KB item, the gzip is split over
 *   `<sk>#part#<i>` items and the main item only holds the count.
 */
const INLINE_MAX = 64 * 1024;
const PART_MAX = 350 * 1024;
const TX_MAX_BYTES = 3_500_000;

export interface Stored extends Item {
  pk: string;
  sk: string;
  v?: string;
  z?: Uint8Array;
  parts?: number;
}

export function encode(pk: string, sk: string, value: unknown): Stored[] {
  const json = JSON.stringify(value, BufferJSON.replacer);
  if (Buffer.byteLength(json) <= INLINE_MAX) return [{ pk, sk, v: json }];
  const gz = gzipSync(json);
  if (gz.length <= PART_MAX) return [{ pk, sk, z: gz }];
  const n = Math.ceil(gz.length / PART_MAX);
  const out: Stored[] = [{ pk, sk, parts: n }];
  for (let i = 0; i < n; i++)
    out.push({ pk, sk: authPartSk(sk, i), z: gz.subarray(i * PART_MAX, (i + 1) * PART_MAX) });
  return out;
}

const parse = (json: string): unknown => JSON.parse(json, BufferJSON.reviver);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** BatchGetItem (consistent) for one partition, with UnprocessedKeys retried. */
async function batchGet(pk: string, wanted: string[]): Promise<Map<string, Stored>> {
  const out = new Map<string, Stored>();
  const sks = [...new Set(wanted)]; // a repeated key is a ValidationException
  const table = authTable.name();
  for (let i = 0; i < sks.length; i += 100) {
    let keys = sks.slice(i, i + 100).map((sk) => toAttr({ pk, sk }));
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(50 * 2 ** attempt, 2000));
      const r = await dynamoClient().send(
        new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }),
      );
      for (const it of r.Responses?.[table] ?? []) {
        const item = fromAttr(it) as Stored;
        out.set(item.sk, item);
      }
      keys = r.UnprocessedKeys?.[table]?.Keys ?? [];
      if (attempt > 8 && keys.length) throw new Error('auth state read: DynamoDB kept keys unprocessed');
    }
  }
  return out;
}

/** Reads and decodes values (following `parts`); missing values are absent from the map. */
export async function readValues(
  pk: string,
  sks: string[],
): Promise<{ values: Map<string, unknown>; parts: Map<string, number> }> {
  const items = await batchGet(pk, sks);
  const partSks = [...items.values()].flatMap((it) =>
    it.parts ? Array.from({ length: it.parts }, (_, i) => authPartSk(it.sk, i)) : [],
  );
  const partItems = partSks.length ? await batchGet(pk, partSks) : new Map<string, Stored>();
  const values = new Map<string, unknown>();
  const parts = new Map<string, number>();
  for (const it of items.values()) {
    parts.set(it.sk, it.parts ?? 0);
    if (it.v !== undefined) values.set(it.sk, parse(it.v));
    else if (it.z) values.set(it.sk, parse(gunzipSync(it.z).toString('utf8')));
    else if (it.parts) {
      const chunks = Array.from({ length: it.parts }, (_, i) => partItems.get(authPartSk(it.sk, i))?.z);
      if (chunks.some((c) => !c)) throw new Error(`auth state: value ${it.sk} is missing parts`);
      values.set(it.sk, parse(gunzipSync(Buffer.concat(chunks as Uint8Array[])).toString('utf8')));
    }
  }
  return { values, parts };
}

export const itemBytes = (it: Stored) =>
  it.sk.length + it.pk.length + (it.v?.length ?? 0) + (it.z?.length ?? 0) + 64;

/** Runs the writes as TransactWriteItems of at most 100 items (and ~3.5 MB), one logical value never split. */
export async function transactGroups(
  groups: TransactWriteItem[][],
  sizes: number[],
  fence?: { sessionId: string; lease: LeaseGuard },
): Promise<void> {
  // Fenced, every transaction also checks the session's epoch (its own item, in the same
  // partition): a host that lost the session writes nothing.
  const lease = fence?.lease;
  const maxItems = lease ? TRANSACTION_MAX_ITEMS - 1 : TRANSACTION_MAX_ITEMS;
  const batches: TransactWriteItem[][] = [];
  let cur: TransactWriteItem[] = [];
  let bytes = 0;
  groups.forEach((g, i) => {
    const size = sizes[i] ?? 0;
    if (cur.length && (cur.length + g.length > maxItems || bytes + size > TX_MAX_BYTES)) {
      batches.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(...g);
    bytes += size;
  });
  if (cur.length) batches.push(cur);
  for (const batch of batches) {
    for (let attempt = 0; ; attempt++) {
      if (await authTable.transact(fence ? [...batch, epochCheck(fence.sessionId, fence.lease)] : batch))
        break;
      if (fence && !(await holdsSession(fence.sessionId, fence.lease)))
        throw new FencedOutError(fence.sessionId, fence.lease);
      // Cancelled without conditions means a conflicting concurrent write: back off and retry.
      if (attempt >= 5) throw new Error('auth state write: transaction kept being cancelled');
      await sleep(100 * 2 ** attempt);
    }
  }
}
