import {
  BatchWriteItemCommand,
  QueryCommand,
  type QueryCommandOutput,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';

import {
  type AuthenticationCreds,
  type AuthenticationState,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { dynamoClient } from '#shared/aws/clients';
import { toAttr } from '#shared/store/db';
import { AUTH_CREDS_SK, AUTH_EPOCH_SK, authPartSk, authPk, authValueSk } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import type { LeaseGuard } from '../../leases.ts';
import { byteCache, SESSION_CACHE_BYTES } from '../../session-memory.ts';
import { encode, itemBytes, readValues, sleep, transactGroups } from './auth-items.ts';

/**
 * A Baileys auth state kept in the auth table, one item per value:
 * `pk = AUTH#<sessionId>`, `sk = creds` or `<type>#<id>` (every SignalDataTypeMap type, generically).
 * Values are JSON with Baileys' BufferJSON replacer; see auth-items.ts for the item layout.
 * Reads go through an in-process cache bounded by bytes (absent values included); key writes are
 * transactional and, with a lease, checked against the session's epoch (connection-host/session-fence.ts).
 */

/** Read once (when a peer starts a session with it) and then deleted: kept in the table, not in memory. */
const NOT_CACHED_ON_WRITE = new Set(['pre-key']);
/** The cache's mark for a value known to be absent (compared by reference). */
const ABSENT: object = Object.freeze({});

export interface DynamoAuthState {
  state: AuthenticationState;
  /** Persists the (mutated) creds object; calls are serialised. */
  saveCreds(): Promise<void>;
  /** Resolves when every write started so far has finished. */
  flush(): Promise<void>;
  /** Stops all further writes (after logout, before the state is cleared). */
  disable(): void;
  /** What the key cache holds now, in bytes (at most SESSION_CACHE_BYTES.authKeys). */
  cachedBytes(): number;
}

/** Loads (or initialises) the session's auth state. Nothing is written until Baileys asks. */
export async function loadAuthState(sessionId: string, lease?: LeaseGuard): Promise<DynamoAuthState> {
  const pk = authPk(sessionId);
  // sk -> value, or ABSENT. What falls out is read again from the table: this link is the only writer.
  const cache = byteCache<string, object>(SESSION_CACHE_BYTES.authKeys);
  // Part counts of split values only (most values have none: a missing entry means 0).
  const knownParts = new Map<string, number>();
  const setParts = (sk: string, n: number) => (n > 0 ? knownParts.set(sk, n) : knownParts.delete(sk));
  // One set per read in flight: the keys written while it ran (their read value is stale).
  const reading = new Set<Set<string>>();
  const pending = new Set<Promise<unknown>>();
  let disabled = false;

  const first = await readValues(pk, [AUTH_CREDS_SK]);
  for (const [sk, n] of first.parts) setParts(sk, n);
  const creds = (first.values.get(AUTH_CREDS_SK) as AuthenticationCreds | undefined) ?? initAuthCreds();

  const remember = (sk: string, value: unknown) => {
    cache.set(sk, value === null || value === undefined ? ABSENT : (value as object));
  };

  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => {});
    return p;
  };

  /** Writes values (null deletes), cleaning up parts a value no longer uses. */
  const write = async (entries: Array<[string, unknown]>) => {
    if (disabled || entries.length === 0) return;
    const groups: TransactWriteItem[][] = [];
    const sizes: number[] = [];
    const newParts = new Map<string, number>();
    for (const [sk, value] of entries) {
      const del = (k: string): TransactWriteItem => ({
        Delete: { TableName: authTable.name(), Key: toAttr({ pk, sk: k }) },
      });
      const items = value === null || value === undefined ? [] : encode(pk, sk, value);
      const n = items[0]?.parts ?? 0;
      const ops = items.length ? items.map((it) => authTable.putOp(it)) : [del(sk)];
      for (let i = n; i < (knownParts.get(sk) ?? 0); i++) ops.push(del(authPartSk(sk, i)));
      groups.push(ops);
      sizes.push(items.reduce((s, it) => s + itemBytes(it), 0) + ops.length * 64);
      newParts.set(sk, n);
    }
    try {
      await transactGroups(groups, sizes, lease && { sessionId, lease });
    } catch (err) {
      // Some batches may have landed: forget what we believed, keep the widest part count to clean up.
      for (const [sk, n] of newParts) {
        cache.delete(sk);
        setParts(sk, Math.max(n, knownParts.get(sk) ?? 0));
        for (const stale of reading) stale.add(sk);
      }
      throw err;
    }
    for (const [sk, n] of newParts) setParts(sk, n);
    for (const [sk, value] of entries) {
      for (const stale of reading) stale.add(sk);
      if (NOT_CACHED_ON_WRITE.has(typeOfSk(sk))) cache.delete(sk);
      else remember(sk, value);
    }
  };

  /**
   * Values of `sks` from the cache, else the table. A key written while its read was in flight is
   * taken from that write (the cache), or read again if the cache has already let it go.
   */
  const lookup = async (sks: string[]): Promise<Map<string, unknown>> => {
    const found = new Map<string, unknown>();
    let missing: string[] = [];
    for (const sk of sks) {
      const v = cache.get(sk);
      if (v === undefined) missing.push(sk);
      else found.set(sk, v === ABSENT ? undefined : v);
    }
    while (missing.length) {
      const stale = new Set<string>();
      reading.add(stale);
      let read: Awaited<ReturnType<typeof readValues>>;
      try {
        read = await readValues(pk, missing);
      } finally {
        reading.delete(stale);
      }
      const again: string[] = [];
      for (const sk of missing) {
        if (stale.has(sk)) {
          const v = cache.get(sk);
          if (v === undefined) again.push(sk);
          else found.set(sk, v === ABSENT ? undefined : v);
          continue;
        }
        setParts(sk, read.parts.get(sk) ?? 0);
        const v = read.values.get(sk);
        remember(sk, v);
        found.set(sk, v);
      }
      missing = again;
    }
    return found;
  };

  let credsChain: Promise<void> = Promise.resolve();

  return {
    state: {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const sks = ids.map((id) => authValueSk(type, id));
          const values = await lookup(sks);
          const out: { [id: string]: SignalDataTypeMap[T] } = {};
          ids.forEach((id, i) => {
            let value = values.get(sks[i] ?? '');
            if (value === null || value === undefined) return;
            if (type === 'app-state-sync-key') {
              value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
            }
            out[id] = value as SignalDataTypeMap[T];
          });
          return out;
        },
        set: async (data: SignalDataSet) => {
          const entries: Array<[string, unknown]> = [];
          for (const [type, byId] of Object.entries(data)) {
            for (const [id, value] of Object.entries(byId ?? {}))
              entries.push([authValueSk(type, id), value]);
          }
          await track(write(entries));
        },
      },
    },
    saveCreds() {
      credsChain = credsChain.catch(() => {}).then(() => write([[AUTH_CREDS_SK, creds]]));
      return track(credsChain);
    },
    async flush() {
      await Promise.allSettled([...pending]);
    },
    disable() {
      disabled = true;
    },
    cachedBytes: () => cache.calculatedSize,
  };
}

/** `<type>#<id>` → `<type>` (`creds` → `creds`). */
const typeOfSk = (sk: string) => {
  const i = sk.indexOf('#');
  return i < 0 ? sk : sk.slice(0, i);
};

/** Deletes every item of the session's auth state but its epoch (Query for the keys, then batch deletes). */
export async function clearAuthState(sessionId: string): Promise<void> {
  const pk = authPk(sessionId);
  const TableName = authTable.name();
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const r = await dynamoClient().send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: '#pk = :pk',
        ProjectionExpression: '#pk, #sk',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
        ExpressionAttributeValues: toAttr({ ':pk': pk }),
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    // The epoch stays: a stale host must not find the session unclaimed and claim it.
    const keys = (r.Items ?? []).filter((k) => k.sk?.S !== AUTH_EPOCH_SK);
    for (let i = 0; i < keys.length; i += 25) {
      let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 0) await sleep(Math.min(50 * 2 ** attempt, 2000));
        if (attempt > 10) throw new Error('auth state clear: DynamoDB kept deletes unprocessed');
        const w = await dynamoClient().send(
          new BatchWriteItemCommand({ RequestItems: { [TableName]: requests } }),
        );
        requests = (w.UnprocessedItems?.[TableName] ?? []).flatMap((u) =>
          u.DeleteRequest?.Key ? [{ DeleteRequest: { Key: u.DeleteRequest.Key } }] : [],
        );
      }
    }
    start = r.LastEvaluatedKey;
  } while (start);
}
