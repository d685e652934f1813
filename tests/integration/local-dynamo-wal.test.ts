import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BatchGetItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnDynamoLocal } from '../../scripts/local/dynamo-process.ts';
import { sharedDbFile, useWriteAheadLog } from '../../scripts/local/dynamo-wal.ts';
import { freePort } from '../../scripts/local/free-port.ts';
import { type LocalDynamo, startDynamo } from '../../scripts/local/local-aws.ts';
import { must } from '../support/must.ts';

/**
 * `npm start`'s persistent DynamoDB Local: its SQLite file in write-ahead-log mode (created so, or
 * switched from the rollback journal of an older data directory), and what was written is there
 * after a restart.
 */
const dirs: string[] = [];
const running: LocalDynamo[] = [];
afterAll(async () => {
  await Promise.all(running.map((d) => d.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'wsm-dynamo-'));
  dirs.push(d);
  return d;
};

/** Bytes 18 and 19 of the SQLite header: 1, 1 for the rollback journal, 2, 2 for WAL. */
function headerModes(dir: string): number[] {
  const fd = openSync(sharedDbFile(dir), 'r');
  try {
    const b = Buffer.alloc(2);
    readSync(fd, b, 0, 2, 18);
    return [...b];
  } finally {
    closeSync(fd);
  }
}

const client = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
  });

async function start(dir: string): Promise<{ db: DynamoDBClient; dynamo: LocalDynamo }> {
  const dynamo = await startDynamo(dir);
  running.push(dynamo);
  return { db: client(dynamo.endpoint), dynamo };
}

async function stop(dynamo: LocalDynamo, db: DynamoDBClient) {
  db.destroy();
  await dynamo.stop();
  running.splice(running.indexOf(dynamo), 1);
}

const TABLE = 'wal-check';
const key = (n: number) => ({ pk: { S: `p${n % 3}` }, sk: { S: `s${n}` } });

async function createTable(db: DynamoDBClient) {
  await db.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
}

async function write(db: DynamoDBClient, from: number, count: number) {
  for (let n = from; n < from + count; n += 10) {
    const batch = Array.from({ length: Math.min(10, from + count - n) }, (_, i) => n + i);
    await db.send(
      new TransactWriteItemsCommand({
        TransactItems: batch.map((m) => ({
          Put: { TableName: TABLE, Item: { ...key(m), body: { S: `item ${m}` } } },
        })),
      }),
    );
  }
}

async function readBodies(db: DynamoDBClient, count: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let n = 0; n < count; n += 100) {
    const keys = Array.from({ length: Math.min(100, count - n) }, (_, i) => key(n + i));
    const r = await db.send(new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: keys } } }));
    bodies.push(...(r.Responses?.[TABLE] ?? []).map((it) => must(it.body?.S, 'a stored body')));
  }
  return bodies.sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
}

const expected = (count: number) => Array.from({ length: count }, (_, n) => `item ${n}`);

describe("npm start's DynamoDB Local on disk", () => {
  it('keeps its tables in WAL mode from the first start, and every write read back survives a crash', async () => {
    const dir = newDir();
    let { db, dynamo } = await start(dir);
    expect(headerModes(dir)).toEqual([2, 2]);
    await createTable(db);
    await write(db, 0, 120);
    // The log is in use: commits go to it.
    expect(existsSync(`${sharedDbFile(dir)}-wal`)).toBe(true);
    // DynamoDB Local answers a transaction a moment before it has committed it: killed at once, it
    // loses its last transaction in either journal mode (docs/benchmarks.md). Read back first.
    expect(await readBodies(db, 120)).toEqual(expected(120));
    // Killed, not stopped: nothing is checkpointed or closed cleanly.
    process.kill(must(dynamo.pid, 'dynamo.pid'), 'SIGKILL');
    await stop(dynamo, db);

    ({ db, dynamo } = await start(dir));
    expect(headerModes(dir)).toEqual([2, 2]);
    expect(await readBodies(db, 120)).toEqual(expected(120));
    await stop(dynamo, db);
  }, 90_000);

  it('switches a data directory written in rollback-journal mode, losing nothing', async () => {
    const dir = newDir();
    // What an older version of the project left: DynamoDB Local's own file, rollback journal.
    const port = await freePort();
    const old = spawnDynamoLocal({ port, dir });
    const oldDb = client(`http://127.0.0.1:${port}`);
    try {
      for (let tries = 0; ; tries++) {
        try {
          await createTable(oldDb);
          break;
        } catch (err) {
          if (tries > 100) throw err;
          await new Promise((r) => setTimeout(r, 300));
        }
      }
      await write(oldDb, 0, 50);
    } finally {
      oldDb.destroy();
      const exited = new Promise((r) => old.once('exit', r));
      old.kill('SIGTERM');
      await exited;
    }
    expect(headerModes(dir)).toEqual([1, 1]);

    let { db, dynamo } = await start(dir);
    expect(headerModes(dir)).toEqual([2, 2]);
    expect(await readBodies(db, 50)).toEqual(expected(50));
    await write(db, 50, 50);
    await stop(dynamo, db);

    ({ db, dynamo } = await start(dir));
    expect(await readBodies(db, 100)).toEqual(expected(100));
    await stop(dynamo, db);
  }, 90_000);

  it('leaves a file with a hot journal to be rolled back first, and a header it does not know', () => {
    const dir = newDir();
    const file = sharedDbFile(dir);
    const rollbackHeader = Buffer.alloc(100);
    rollbackHeader.write('SQLite format 3\0', 0, 'latin1');
    rollbackHeader[18] = 1;
    rollbackHeader[19] = 1;
    writeFileSync(file, rollbackHeader);
    writeFileSync(`${file}-journal`, 'pending rollback');
    expect(useWriteAheadLog(dir)).toBe('rollback');
    expect(headerModes(dir)).toEqual([1, 1]);

    rmSync(`${file}-journal`);
    expect(useWriteAheadLog(dir)).toBe('wal');
    expect(headerModes(dir)).toEqual([2, 2]);

    rollbackHeader[18] = 3;
    rollbackHeader[19] = 3;
    writeFileSync(file, rollbackHeader);
    expect(useWriteAheadLog(dir)).toBe('rollback');
    expect(headerModes(dir)).toEqual([3, 3]);
  });
});
