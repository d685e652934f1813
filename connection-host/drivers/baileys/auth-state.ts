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
import { encode, itemBytes, readValues, sleep, transactGroups } from './auth-items.ts';

/**
 * A Baileys auth state kept in the auth table, one item per value:
 * `pk = AUTH#<sessionId>`, `sk = creds` or `<type>#<id>` (every SignalDataTypeMap type, generically).
 * Values are JSON with Baileys' BufferJSON replacer; see auth-items.ts for the item layout.
 * Reads go through an in-process cache (absent values included); key writes are transactional and,
 * with a lease, checked against the session's epoch (connection-host/session-fence.ts).
 */
const CACHE_MAX = 20_000;

export interface DynamoAuthState {
  state: AuthenticationState;
  /** Persists the (mutated) creds object; calls are serialised. */
  saveCreds(): Promise<void>;
  /** Resolves when every write started so far has finished. */
  flush(): Promise<void>;
  /** Stops all further writes (after logout, before the state is cleared). */
  disable(): void;
}

/** Loads (or initialises) the session's auth state. Nothing is written until Baileys asks. */
export async function loadAuthState(sessionId: string, lease?: LeaseGuard): Promise<DynamoAuthState> {
  const pk = authPk(sessionId);
  const cache = new Map<string, unknown>(); // sk -> value, or null when known absent
  const knownParts = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();
  let disabled = false;

  const first = await readValues(pk, [AUTH_CREDS_SK]);
  for (const [sk, n] of first.parts) knownParts.set(sk, n);
  const creds = (first.values.get(AUTH_CREDS_SK) as AuthenticationCreds | undefined) ?? initAuthCreds();

  const remember = (sk: string, value: unknown) => {
    cache.delete(sk);
    cache.set(sk, value);
    if (cache.size > CACHE_MAX) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
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
        knownParts.set(sk, Math.max(n, knownParts.get(sk) ?? 0));
      }
      throw err;
    }
    for (const [sk, n] of newParts) knownParts.set(sk, n);
    for (const [sk, value] of entries) remember(sk, value ?? null);
  };

  let credsChain: Promise<void> = Promise.resolve();

  return {
    state: {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const sks = ids.map((id) => authValueSk(type, id));
          const missing = sks.filter((sk) => !cache.has(sk));
          if (missing.length) {
            const { values, parts } = await readValues(pk, missing);
            for (const [sk, n] of parts) knownParts.set(sk, n);
            // A set() that finished meanwhile wins over what this read saw.
            for (const sk of missing) if (!cache.has(sk)) remember(sk, values.get(sk) ?? null);
          }
          const out: { [id: string]: SignalDataTypeMap[T] } = {};
          ids.forEach((id, i) => {
            let value = cache.get(sks[i] ?? '');
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
  };
}

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
