import {
  type DynamoDBClient,
  PutItemCommand,
  type PutItemCommandInput,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';

/**
 * Puts gathered into one TransactWriteItems per turn of the event loop: for `npm start`'s
 * persistent mode only (`DYNAMODB_GROUP_WRITES`), where DynamoDB Local commits every write request
 * to disk on its own (a BatchWriteItem too, item by item) and only a transaction commits several
 * items at once. There a message costs two conditional puts (the message, then its delivery
 * record), which would cap the pipeline near half the disk's commit rate; grouped, the puts that 20
 * sessions make side by side cost one commit. On AWS a transaction costs each item twice the write
 * units, so there every put is its own request (docs/benchmarks.md, "Write units" and "Inbound
 * throughput").
 *
 * Each put answers as `Table.put` does: true once written, false when its condition failed, or its
 * own error. Nothing changes in what callers see: a put resolves only after its commit, so a
 * session's puts made one after another are still written in their order.
 */

/** Puts in one transaction at most (DynamoDB allows 100 items and 4 MB). */
export const GROUP_MAX_ITEMS = 25;
/** Marshalled bytes in one transaction at most, well under DynamoDB's 4 MB. */
const GROUP_MAX_BYTES = 1_000_000;

interface Pending {
  input: PutItemCommandInput;
  /** Whether a failed condition answers false (an unconditional put has none to fail). */
  conditional: boolean;
  bytes: number;
  resolve: (written: boolean) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly client: () => DynamoDBClient) {}

  /** Writes `input` with the puts made in the same turn; answers false when its condition failed. */
  put(input: PutItemCommandInput, conditional: boolean): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, conditional, bytes: JSON.stringify(input.Item).length, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length) {
        const { group, blocked } = this.take();
        const committed = this.commit(group);
        // A put of an item already in this group waits for its commit: puts of one item stay in order.
        if (blocked) {
          void committed.finally(() => this.schedule());
          return;
        }
      }
    });
  }

  /**
   * The next group: in arrival order, within the caps, no item twice (a transaction refuses that);
   * `blocked` when a put was left for an item in the group.
   */
  private take(): { group: Pending[]; blocked: boolean } {
    const group: Pending[] = [];
    const rest: Pending[] = [];
    const keys = new Set<string>();
    let bytes = 0;
    let blocked = false;
    for (const p of this.queue) {
      const key = `${p.input.TableName}\0${p.input.Item?.pk?.S}\0${p.input.Item?.sk?.S}`;
      const fits = group.length < GROUP_MAX_ITEMS && (!group.length || bytes + p.bytes <= GROUP_MAX_BYTES);
      if (keys.has(key)) blocked = true;
      if (!fits || keys.has(key)) {
        keys.add(key);
        rest.push(p);
        continue;
      }
      keys.add(key);
      bytes += p.bytes;
      group.push(p);
    }
    this.queue = rest;
    return { group, blocked };
  }

  private async commit(group: Pending[]): Promise<void> {
    const [first] = group;
    if (first && group.length === 1) return this.single(first);
    try {
      await this.client().send(
        new TransactWriteItemsCommand({
          TransactItems: group.map(({ input }) => ({
            Put: {
              TableName: input.TableName,
              Item: input.Item,
              ConditionExpression: input.ConditionExpression,
              ExpressionAttributeNames: input.ExpressionAttributeNames,
              ExpressionAttributeValues: input.ExpressionAttributeValues,
            },
          })),
        }),
      );
      for (const p of group) p.resolve(true);
    } catch (err) {
      // Nothing of the group was written. A put whose own condition failed answers false; every
      // other one is made again on its own, which answers for it alone (a conflict, a bad item).
      const reasons = (err as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons;
      await Promise.all(
        group.map((p, i) =>
          p.conditional && reasons?.[i]?.Code === 'ConditionalCheckFailed'
            ? p.resolve(false)
            : this.single(p),
        ),
      );
    }
  }

  private async single(p: Pending): Promise<void> {
    try {
      await this.client().send(new PutItemCommand(p.input));
      p.resolve(true);
    } catch (err) {
      if (p.conditional && (err as { name?: string }).name === 'ConditionalCheckFailedException')
        p.resolve(false);
      else p.reject(err);
    }
  }
}
