import {
  BatchGetItemCommand,
  type BatchGetItemCommandInput,
  type BatchGetItemCommandOutput,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
  type TransactWriteItem,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamoClient } from '../aws/clients.ts';
import { env } from '../config/env.ts';
import { GroupCommit } from './group-commit.ts';

/** DynamoDB's limit of items in one TransactWriteItems. */
export const TRANSACTION_MAX_ITEMS = 100;

export type Item = Record<string, unknown>;
export interface Key {
  pk: string;
  sk: string;
}

const opts = { removeUndefinedValues: true, convertClassInstanceToMap: true } as const;
export const toAttr = (v: Item) => marshall(v, opts);
export const fromAttr = (v: Parameters<typeof unmarshall>[0]) => unmarshall(v) as Item;

/** `npm start`'s persistent mode: puts of the same turn in one commit (group-commit.ts). */
const grouped = new GroupCommit(dynamoClient);

export interface UpdateOptions {
  condition?: string;
  names?: Record<string, string>;
  values?: Item;
  add?: Record<string, number>;
  /** Attributes to remove. */
  remove?: string[];
}

/** Thin typed helpers over one DynamoDB table. Keys are built by the repositories, which take the tenant. */
export class Table {
  constructor(readonly name: () => string) {}

  async get<T = Item>(key: Key, consistent = false): Promise<T | undefined> {
    const r = await dynamoClient().send(
      new GetItemCommand({ TableName: this.name(), Key: toAttr({ ...key }), ConsistentRead: consistent }),
    );
    return r.Item ? (fromAttr(r.Item) as T) : undefined;
  }

  /**
   * Put; with `ifAbsent` the write fails with `false` when the key exists already, with `condition`
   * when that condition on the stored item fails.
   */
  async put(
    item: Item & Key,
    opt: {
      ifAbsent?: boolean;
      condition?: { expression: string; names?: Record<string, string>; values?: Item };
    } = {},
  ): Promise<boolean> {
    const c = opt.condition;
    const input = {
      TableName: this.name(),
      Item: toAttr(item),
      ConditionExpression: c?.expression ?? (opt.ifAbsent ? 'attribute_not_exists(pk)' : undefined),
      ExpressionAttributeNames: c?.names,
      ExpressionAttributeValues: c?.values ? toAttr(c.values) : undefined,
    };
    if (env().DYNAMODB_GROUP_WRITES) return grouped.put(input, Boolean(opt.ifAbsent || c));
    try {
      await dynamoClient().send(new PutItemCommand(input));
      return true;
    } catch (err) {
      if ((opt.ifAbsent || c) && err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async delete(key: Key): Promise<void> {
    await dynamoClient().send(new DeleteItemCommand({ TableName: this.name(), Key: toAttr({ ...key }) }));
  }

  /**
   * Sets the given attributes (undefined values are skipped). With `condition`, a failed condition
   * answers `undefined` instead of throwing. Returns the item after the update.
   */
  async update<T = Item>(key: Key, set: Item, opt: UpdateOptions = {}): Promise<T | undefined> {
    try {
      const r = await dynamoClient().send(
        new UpdateItemCommand({ ...this.updateInput(key, set, opt), ReturnValues: 'ALL_NEW' }),
      );
      return r.Attributes ? (fromAttr(r.Attributes) as T) : undefined;
    } catch (err) {
      if (opt.condition && err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  /** The same update as `update`, as one item of a `transact` call. */
  updateOp(key: Key, set: Item, opt: UpdateOptions = {}): TransactWriteItem {
    return { Update: this.updateInput(key, set, opt) };
  }

  /** The request parts of an update: SET the given attributes (undefined skipped), ADD the counters. */
  private updateInput(key: Key, set: Item, opt: UpdateOptions) {
    const names: Record<string, string> = { ...opt.names };
    const values: Item = { ...opt.values };
    const sets: string[] = [];
    let i = 0;
    for (const [k, v] of Object.entries(set)) {
      if (v === undefined) continue;
      names[`#u${i}`] = k;
      values[`:u${i}`] = v;
      sets.push(`#u${i} = :u${i}`);
      i++;
    }
    const adds: string[] = [];
    for (const [k, v] of Object.entries(opt.add ?? {})) {
      names[`#a${i}`] = k;
      values[`:a${i}`] = v;
      adds.push(`#a${i} :a${i}`);
      i++;
    }
    const removes: string[] = [];
    for (const k of opt.remove ?? []) {
      names[`#r${i}`] = k;
      removes.push(`#r${i}`);
      i++;
    }
    const expr = [
      sets.length ? `SET ${sets.join(', ')}` : '',
      adds.length ? `ADD ${adds.join(', ')}` : '',
      removes.length ? `REMOVE ${removes.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return {
      TableName: this.name(),
      Key: toAttr({ ...key }),
      UpdateExpression: expr,
      ConditionExpression: opt.condition,
      ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
      ExpressionAttributeValues: Object.keys(values).length ? toAttr(values) : undefined,
    };
  }

  /** Several items by key (strongly consistent), in the order of `keys`; undefined where none. */
  async getMany<T = Item>(keys: Key[]): Promise<Array<T | undefined>> {
    const found = new Map<string, T>();
    const id = (k: { pk: unknown; sk: unknown }) => `${k.pk}\0${k.sk}`;
    for (let i = 0; i < keys.length; i += 100) {
      let pending: BatchGetItemCommandInput['RequestItems'] = {
        [this.name()]: { Keys: keys.slice(i, i + 100).map((k) => toAttr({ ...k })), ConsistentRead: true },
      };
      for (let round = 0; pending && Object.keys(pending).length; round++) {
        if (round > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** round)));
        const r: BatchGetItemCommandOutput = await dynamoClient().send(
          new BatchGetItemCommand({ RequestItems: pending }),
        );
        for (const it of r.Responses?.[this.name()] ?? []) {
          const item = fromAttr(it);
          found.set(id(item as unknown as Key), item as T);
        }
        pending = r.UnprocessedKeys;
      }
    }
    return keys.map((k) => found.get(id(k)));
  }

  /** Query one partition (of the table or an index), newest first by default. */
  async query<T = Item>(q: {
    index?: 'gsi1' | 'gsi2';
    pk: string;
    skBeginsWith?: string;
    skAfter?: string;
    limit?: number;
    ascending?: boolean;
    filter?: { expression: string; names?: Record<string, string>; values?: Item };
    /** Only these attributes of each item (a cheaper read when the rest is not needed). */
    project?: readonly string[];
  }): Promise<T[]> {
    const pkName = q.index ? `${q.index}pk` : 'pk';
    const skName = q.index ? `${q.index}sk` : 'sk';
    const values: Item = { ':pk': q.pk, ...q.filter?.values };
    let cond = '#pk = :pk';
    const names: Record<string, string> = { '#pk': pkName, ...q.filter?.names };
    if (q.skBeginsWith !== undefined) {
      cond += ' AND begins_with(#sk, :sk)';
      names['#sk'] = skName;
      values[':sk'] = q.skBeginsWith;
    } else if (q.skAfter !== undefined) {
      cond += ' AND #sk > :sk';
      names['#sk'] = skName;
      values[':sk'] = q.skAfter;
    }
    const projection = q.project?.map((a, i) => {
      names[`#p${i}`] = a;
      return `#p${i}`;
    });
    const out: T[] = [];
    let start: QueryCommandInput['ExclusiveStartKey'];
    do {
      const r = await dynamoClient().send(
        new QueryCommand({
          TableName: this.name(),
          IndexName: q.index,
          KeyConditionExpression: cond,
          ProjectionExpression: projection?.join(', '),
          FilterExpression: q.filter?.expression,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: toAttr(values),
          ScanIndexForward: q.ascending ?? false,
          Limit: q.filter ? undefined : q.limit,
          ExclusiveStartKey: start,
        }),
      );
      for (const it of r.Items ?? []) out.push(fromAttr(it) as T);
      start = r.LastEvaluatedKey;
    } while (start && (q.limit === undefined || out.length < q.limit));
    return q.limit === undefined ? out : out.slice(0, q.limit);
  }

  /**
   * One partition page by page (at most `pageSize` items each), oldest first, for exports that must
   * never hold a whole partition in memory.
   */
  async *pages<T = Item>(q: { pk: string; skBeginsWith: string; pageSize?: number }): AsyncGenerator<T[]> {
    let start: QueryCommandInput['ExclusiveStartKey'];
    do {
      const r = await dynamoClient().send(
        new QueryCommand({
          TableName: this.name(),
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
          ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
          ExpressionAttributeValues: toAttr({ ':pk': q.pk, ':sk': q.skBeginsWith }),
          ScanIndexForward: true,
          Limit: q.pageSize ?? 500,
          ExclusiveStartKey: start,
        }),
      );
      yield (r.Items ?? []).map((it) => fromAttr(it) as T);
      start = r.LastEvaluatedKey;
    } while (start);
  }

  /**
   * Every item of the table that passes `filter`, page by page: a read of the whole table, for a
   * rare sweep (functions/webhooks/sweep.ts), never for a request.
   */
  async *scan<T = Item>(filter: {
    expression: string;
    names?: Record<string, string>;
    values?: Item;
  }): AsyncGenerator<T[]> {
    let start: ScanCommandInput['ExclusiveStartKey'];
    do {
      const r = await dynamoClient().send(
        new ScanCommand({
          TableName: this.name(),
          FilterExpression: filter.expression,
          ExpressionAttributeNames: filter.names,
          ExpressionAttributeValues: filter.values ? toAttr(filter.values) : undefined,
          ExclusiveStartKey: start,
        }),
      );
      yield (r.Items ?? []).map((it) => fromAttr(it) as T);
      start = r.LastEvaluatedKey;
    } while (start);
  }

  /** Writes all or nothing; answers false when a condition failed. */
  async transact(items: TransactWriteItem[]): Promise<boolean> {
    try {
      await dynamoClient().send(new TransactWriteItemsCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      if ((err as { name?: string }).name === 'TransactionCanceledException') return false;
      throw err;
    }
  }

  putIfAbsentOp(item: Item & Key): TransactWriteItem {
    return {
      Put: { TableName: this.name(), Item: toAttr(item), ConditionExpression: 'attribute_not_exists(pk)' },
    };
  }

  putOp(item: Item & Key): TransactWriteItem {
    return { Put: { TableName: this.name(), Item: toAttr(item) } };
  }
}
