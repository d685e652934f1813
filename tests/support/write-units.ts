import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { must } from './must.ts';

/**
 * Write units as DynamoDB itself counts them: every write request of a client is sent with
 * `ReturnConsumedCapacity: 'INDEXES'`, and the capacity each answer reports is summed per item kind
 * (the base table and each index apart). A transaction reports one figure for all its items; it is
 * booked under the kinds of its items joined with `+` (the inbound path's usual writes avoid them).
 * DynamoDB Local reports a transaction of several items as if it held one (DynamoDB charges each
 * item two units per KB), so a transaction's table units are booked as at least two per item.
 */
export interface WriteUnits {
  /** Kind → { table, gsi1, gsi2, … } write units. */
  byKind: Map<string, Record<string, number>>;
  total(): number;
  reset(): void;
  stop(): void;
}

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/** The kind of an item from its key: the sort-key prefix, else the partition's suffix. */
export function itemKind(pk: string, sk: string): string {
  const prefix = /^([A-Z]+)#/.exec(sk)?.[1];
  if (prefix) return SK_KINDS[prefix] ?? prefix;
  if (pk.startsWith('AUTH#')) return 'auth';
  const part = /^T#[^#]+#([A-Z]+)/.exec(pk)?.[1];
  return part ? (PK_KINDS[part] ?? part) : must(pk.split('#')[0], "pk.split('#')[0]");
}

const SK_KINDS: Record<string, string> = {
  M: 'message',
  C: 'chat',
  CT: 'contact',
  DLV: 'delivery',
  S: 'session-or-usage',
  WHSS: 'session-status-sent',
  LID: 'lid',
  G: 'group',
};
const PK_KINDS: Record<string, string> = { CB: 'chatbot-turn', IDEM: 'idempotency', USAGE: 'usage' };

type Attr = { S?: string };
type KeyAttrs = { pk?: Attr; sk?: Attr };

function kindsOf(name: string, input: Record<string, any>): string[] {
  const of = (k: KeyAttrs | undefined) => itemKind(k?.pk?.S ?? '', k?.sk?.S ?? '');
  if (name === 'PutItemCommand') return [of(input.Item)];
  if (name === 'UpdateItemCommand' || name === 'DeleteItemCommand') return [of(input.Key)];
  if (name === 'TransactWriteItemsCommand')
    return (input.TransactItems ?? []).map((t: any) =>
      of(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key),
    );
  return Object.values(input.RequestItems ?? {}).flatMap((reqs: any) =>
    reqs.map((r: any) => of(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
  );
}

/** Starts metering `client`'s writes (add it before the client's first request: clients cache their stack). */
export function meterWriteUnits(client: DynamoDBClient, name = 'write-units-meter'): WriteUnits {
  const byKind = new Map<string, Record<string, number>>();
  const book = (kind: string, part: string, units: number | undefined) => {
    if (!units) return;
    const row = byKind.get(kind) ?? {};
    row[part] = (row[part] ?? 0) + units;
    byKind.set(kind, row);
  };
  const middleware =
    (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
      const cmd = context.commandName ?? '';
      if (!WRITES.has(cmd)) return next(args);
      args.input.ReturnConsumedCapacity = 'INDEXES';
      const kinds = kindsOf(cmd, args.input);
      const out = await next(args);
      const cc = out.output?.ConsumedCapacity;
      const list = Array.isArray(cc) ? cc : cc ? [cc] : [];
      const kind = [...new Set(kinds)].sort().join('+');
      const transaction = cmd === 'TransactWriteItemsCommand';
      const written = transaction
        ? (args.input.TransactItems ?? []).filter((t: any) => !t.ConditionCheck).length
        : 0;
      for (const c of list) {
        const indexes = Object.entries({ ...c.GlobalSecondaryIndexes, ...c.LocalSecondaryIndexes }).map(
          ([index, v]) => [index, (v as { CapacityUnits?: number }).CapacityUnits ?? 0] as const,
        );
        const onIndexes = indexes.reduce((n, [, u]) => n + u, 0);
        const table = c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - onIndexes;
        book(kind, 'table', transaction ? Math.max(table, 2 * written) : table);
        for (const [index, units] of indexes) book(kind, index, units);
      }
      return out;
    };
  client.middlewareStack.add(middleware as never, { step: 'initialize', name });
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  return {
    byKind,
    total: () => [...byKind.values()].reduce((n, r) => n + sum(r), 0),
    reset: () => byKind.clear(),
    stop: () => void client.middlewareStack.remove(name),
  };
}
