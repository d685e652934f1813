import './quiet.ts';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { InitializeMiddleware } from '@smithy/types';
import { dynamoClient, s3Client, sqsClient } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { startService } from '../../scripts/local/service.ts';
import { must } from '../../tests/support/must.ts';

/**
 * The whole service as `npm start` runs it (DynamoDB Local persisting under BENCH_DATA_DIR, the
 * simulator network), in a process of its own so that its CPU is not the load generator's.
 * Prints one JSON line when ready. Answers `counts` on stdin with the AWS requests it has made, by
 * service and command (an SDK middleware in this process only; the product is unchanged).
 */
const counts: Record<string, number> = {};
const bump = (key: string, n = 1) => {
  counts[key] = (counts[key] ?? 0) + n;
};
function counter<I extends object, O extends object>(service: string): InitializeMiddleware<I, O> {
  return (next, context) => (args) => {
    const key = `${service}:${context.commandName}`;
    bump(key);
    // Items, not requests: what DynamoDB Local pays for.
    if (service === 'dynamodb') bump('dynamodb:items', itemsOf(context.commandName ?? '', args.input));
    if (process.env.BENCH_DETAIL) {
      // Which kind of item: the sort key's prefix (`M`, `DLV`, `WHCFG`…) of a single-item request.
      const input = args.input as { Key?: { sk?: { S?: string } }; Item?: { sk?: { S?: string } } };
      const sk = input.Key?.sk?.S ?? input.Item?.sk?.S;
      if (sk) bump(`${key}:${sk.split('#')[0]}`);
      // A transaction: per request, the kind of its first item (`request:Put:M`); per item, its
      // kind (`Put:M` a message, `Update:C` a chat, `Put:DLV` / `Update:DLV` a delivery…).
      const ops = (args.input as { TransactItems?: Array<Record<string, typeof input>> }).TransactItems;
      const kindOf = (op: Record<string, typeof input>) => {
        const [kind, body] = Object.entries(op)[0] ?? [];
        return `${kind}:${(body?.Key?.sk?.S ?? body?.Item?.sk?.S ?? '').split('#')[0]}`;
      };
      if (ops?.[0]) bump(`${key}:request:${kindOf(ops[0])}`);
      for (const op of ops ?? []) bump(`${key}:${kindOf(op)}`);
    }
    if (process.env.BENCH_DETAIL && service === 'sqs') {
      // Which queue; for batch requests, how many entries they carried.
      const q = args.input as { QueueUrl?: string; Entries?: unknown[] };
      const detail = `${key}:${q.QueueUrl?.split('/').at(-1)}`;
      bump(detail);
      if (q.Entries) bump(`${detail}:entries`, q.Entries.length);
    }
    if (service !== 'dynamodb' || context.commandName !== 'QueryCommand') return next(args);
    return next(args).then((out) => {
      const returned = (out.output as { Count?: number }).Count ?? 0;
      bump('dynamodb:items', returned);
      if (process.env.BENCH_DETAIL) {
        // Which query: its index and the partition's kind (`FEED`, `DLV`…).
        const q = args.input as {
          IndexName?: string;
          ExpressionAttributeValues?: Record<string, { S?: string }>;
        };
        const pk = Object.values(q.ExpressionAttributeValues ?? {})[0]?.S ?? '';
        const kind = `dynamodb:QueryItems:${q.IndexName ?? 'table'}:${pk.split('#').slice(2, 3).join('') || pk.split('#')[0]}`;
        bump(kind, returned);
      }
      return out;
    });
  };
}

/** Items a request writes or names (a Query's are counted by what it returns). */
function itemsOf(command: string, input: unknown): number {
  const i = input as {
    TransactItems?: unknown[];
    RequestItems?: Record<string, unknown[] | { Keys?: unknown[] }>;
  };
  if (command === 'TransactWriteItemsCommand') return i.TransactItems?.length ?? 0;
  if (command === 'BatchWriteItemCommand')
    return Object.values(i.RequestItems ?? {}).reduce<number>((n, v) => n + (v as unknown[]).length, 0);
  if (command === 'BatchGetItemCommand')
    return Object.values(i.RequestItems ?? {}).reduce<number>(
      (n, v) => n + ((v as { Keys?: unknown[] }).Keys?.length ?? 0),
      0,
    );
  if (command === 'QueryCommand' || command === 'ScanCommand') return 0;
  return 1;
}

/** The request counters (and the diagnostic below), in place before the service's first request. */
function instrument(): void {
  dynamoClient().middlewareStack.add(counter('dynamodb'), { step: 'initialize', name: 'bench-count' });
  if (process.env.BENCH_WITHOUT_CHATBOT === 'true') {
    // Diagnostic only: chatbot jobs are not queued (answered as sent), so a run measures the inbound
    // pipeline without the chatbot consumer's load. The product never does this.
    sqsClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { QueueUrl?: string };
        if (
          context.commandName === 'SendMessageCommand' &&
          input.QueueUrl?.endsWith(`/${names.chatbotQueue()}`)
        ) {
          return { output: { $metadata: {} }, response: {} } as never;
        }
        return next(args);
      },
      { step: 'initialize', name: 'bench-no-chatbot' },
    );
  }
  sqsClient().middlewareStack.add(counter('sqs'), { step: 'initialize', name: 'bench-count' });
  s3Client().middlewareStack.add(counter('s3'), { step: 'initialize', name: 'bench-count' });
}

const service = await startService({
  dataDir: process.env.BENCH_DATA_DIR,
  driver: 'simulator',
  port: 0,
  beforeFirstRequest: instrument,
  env: {
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SEND_INTERVAL_MS: process.env.SEND_INTERVAL_MS ?? '50',
  },
});

/** CPU time so far (user + system, ms) of this process and of DynamoDB Local's JVM. */
function cpuMs(): { service: number; dynamodb: number } {
  const u = process.cpuUsage();
  return { service: (u.user + u.system) / 1000, dynamodb: procCpuMs(service.dynamoPid) };
}
function procCpuMs(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    // /proc/<pid>/stat: fields 14 and 15 are utime and stime in clock ticks (100 a second).
    const fields = must(
      readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1],
      `the fields of /proc/${pid}/stat`,
    ).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

process.stdout.write(
  `${JSON.stringify({ baseUrl: service.baseUrl, adminApiKey: service.adminApiKey, env: service.env })}\n`,
);
const stop = async () => {
  await service.stop();
  process.exit(0);
};
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line.trim() === 'counts') process.stdout.write(`${JSON.stringify({ counts, cpu: cpuMs() })}\n`);
  })
  // The bench that started this process is gone (killed by a timeout, say): stop with it, DynamoDB
  // Local included, instead of running on as an orphan.
  .on('close', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
