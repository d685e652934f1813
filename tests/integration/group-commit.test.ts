import { randomUUID } from 'node:crypto';
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dynamoClient } from '#shared/aws/clients';
import { toAttr } from '#shared/store/db';
import { GroupCommit } from '#shared/store/group-commit';
import { dataTable } from '#shared/store/tables';

/**
 * `npm start`'s persistent mode groups the puts made in the same turn into one transaction
 * (shared/store/group-commit.ts). Against the local DynamoDB: each put answers as a put of its own
 * would (written, or false for its failed condition), in one request when nothing fails.
 */
const group = new GroupCommit(dynamoClient);
const pk = `GC#${randomUUID()}`;
const input = (sk: string, v: string, ifAbsent = true) => ({
  TableName: dataTable.name(),
  Item: toAttr({ pk, sk, v }),
  ConditionExpression: ifAbsent ? 'attribute_not_exists(pk)' : undefined,
});

afterEach(() => vi.restoreAllMocks());

describe('group commit', () => {
  it('puts of one turn go in one transaction; each answers for itself', async () => {
    const send = vi.spyOn(dynamoClient(), 'send');
    const written = await Promise.all(['a', 'b', 'c'].map((sk) => group.put(input(sk, sk), true)));
    expect(written).toEqual([true, true, true]);
    const transactions = send.mock.calls.filter(([c]) => c instanceof TransactWriteItemsCommand);
    expect(transactions).toHaveLength(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(await dataTable.get({ pk, sk: 'b' }, true)).toMatchObject({ v: 'b' });
  });

  it("a failed condition answers false for that put only; the group's others are written", async () => {
    const written = await Promise.all([
      group.put(input('d', 'new'), true),
      group.put(input('a', 'again'), true),
      group.put(input('e', 'new'), true),
    ]);
    expect(written).toEqual([true, false, true]);
    expect(await dataTable.get({ pk, sk: 'a' }, true)).toMatchObject({ v: 'a' });
    expect(await dataTable.get({ pk, sk: 'e' }, true)).toMatchObject({ v: 'new' });
  });

  it('two puts of one item in one turn are committed one after the other, in their order', async () => {
    const written = await Promise.all([
      group.put(input('f', 'first', false), false),
      group.put(input('f', 'second', false), false),
    ]);
    expect(written).toEqual([true, true]);
    expect(await dataTable.get({ pk, sk: 'f' }, true)).toMatchObject({ v: 'second' });
  });

  it('a put the store refuses fails alone', async () => {
    const tooBig = { TableName: dataTable.name(), Item: toAttr({ pk, sk: 'g', v: 'x'.repeat(410_000) }) };
    const [big, small] = await Promise.allSettled([
      group.put(tooBig, false),
      group.put(input('h', 'ok'), true),
    ]);
    expect(big.status).toBe('rejected');
    expect(small).toEqual({ status: 'fulfilled', value: true });
  });
});
