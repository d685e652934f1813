import { createInterface } from 'node:readline';
import type { InitializeMiddleware } from '@smithy/types';
import { dynamoClient, s3Client, sqsClient } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { startService } from '../../scripts/local/service.ts';

/**
 * The whole service as `npm start` runs it (DynamoDB Local persisting under BENCH_DATA_DIR, the
 * simulator network), in a process of its own so that its CPU is not the load generator's.
 * Prints one JSON line when ready. Answers `counts` on stdin with the AWS requests it has made, by
 * service and command (an SDK middleware in this process only; the product is unchanged).
 */
const counts: Record<string, number> = {};
function counter<I extends object, O extends object>(service: string): InitializeMiddleware<I, O> {
  return (next, context) => (args) => {
    const key = `${service}:${context.commandName}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (process.env.BENCH_DETAIL) {
      // Which kind of item: the sort key's prefix (`MSG`, `WHD`, `CHAT`…) of a single-item request.
      const input = args.input as { Key?: { sk?: { S?: string } }; Item?: { sk?: { S?: string } } };
      const sk = input.Key?.sk?.S ?? input.Item?.sk?.S;
      if (sk) {
        const detail = `${key}:${sk.split('#')[0]}`;
        counts[detail] = (counts[detail] ?? 0) + 1;
      }
    }
    return next(args);
  };
}

const service = await startService({
  dataDir: process.env.BENCH_DATA_DIR,
  driver: 'simulator',
  port: 0,
  env: {
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SEND_INTERVAL_MS: process.env.SEND_INTERVAL_MS ?? '50',
  },
});
dynamoClient().middlewareStack.add(counter('dynamodb'), { step: 'initialize', name: 'bench-count' });
if (process.env.BENCH_WITHOUT_CHATBOT === 'true') {
  // Diagnostic only: chatbot jobs are not queued (answered as sent), so a run measures the inbound
  // pipeline without the chatbot consumer's load. The product never does this.
  const chatbotQueue = names.chatbotQueue();
  sqsClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { QueueUrl?: string };
      if (context.commandName === 'SendMessageCommand' && input.QueueUrl?.endsWith(`/${chatbotQueue}`)) {
        return { output: { $metadata: {} }, response: {} } as never;
      }
      return next(args);
    },
    { step: 'initialize', name: 'bench-no-chatbot' },
  );
}
sqsClient().middlewareStack.add(counter('sqs'), { step: 'initialize', name: 'bench-count' });
s3Client().middlewareStack.add(counter('s3'), { step: 'initialize', name: 'bench-count' });

process.stdout.write(
  `${JSON.stringify({ baseUrl: service.baseUrl, adminApiKey: service.adminApiKey, env: service.env })}\n`,
);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'counts') process.stdout.write(`${JSON.stringify({ counts })}\n`);
});
const stop = async () => {
  await service.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
