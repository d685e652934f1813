import { Duration, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { type QueueDef, queues } from '#shared/aws/resources';
import { must } from '#shared/must';
import { SQS_BATCH_MAX } from '#shared/queue/limits';
import { type FunctionBase, grantCommon, pick } from './function-base.ts';
import { nodeFunction } from './functions.ts';
import { grantMediaRead, grantMediaWrite } from './grants.ts';
import type { QueueWithDlq } from './queues.ts';
import type { ServiceSecrets } from './secrets.ts';

/*
 * The SQS consumers (functions/events, chatbot, media, webhooks) and who may send to which queue:
 * the pipeline an inbound message takes after the host, written in one place. Created in the stack
 * itself, so logical IDs are the same as when this was inline in infra/stack.ts.
 */

export interface ConsumersProps {
  service: Record<string, string>;
  secrets: ServiceSecrets;
  commandQueues: sqs.IQueue[];
  /** Every queue and its dead-letter queue, by queue id. */
  queues: Map<string, QueueWithDlq>;
  ffmpegLayerArn?: string;
}

export interface Consumers {
  events: lambda.Function;
  chatbot: lambda.Function;
  mediaConsumer: lambda.Function;
  webhooks: lambda.Function;
}

export function addConsumers(stack: Stack, base: FunctionBase, props: ConsumersProps): Consumers {
  const { service } = props;
  const withDlq = (id: string) => must(props.queues.get(id), `queue ${id}`);
  const queue = (id: string) => withDlq(id).queue;

  /** An SQS-triggered handler: reads the store and media, reports partial batch failures. */
  const consumer = (
    id: string,
    entry: string,
    def: QueueDef,
    maxConcurrency?: number,
    extraEnvironment: Record<string, string> = {},
    memorySize?: number,
  ) => {
    const fn = nodeFunction(stack, id, entry, {
      environment: { ...base.environment, ...extraEnvironment },
      memorySize,
      timeout: Duration.seconds(def.consumerTimeoutSeconds),
      logs: base.logs,
    });
    grantCommon(base, fn);
    grantMediaRead(base.media, fn);
    fn.addEventSource(
      new SqsEventSource(queue(def.id), {
        batchSize: SQS_BATCH_MAX,
        reportBatchItemFailures: true,
        maxConcurrency,
      }),
    );
    return fn;
  };

  // The events consumer makes the first webhook attempts of the messages it stores
  // (shared/webhooks/first-attempts.ts): it queues what is left and the retries, and parks a
  // delivery that fails for good on the webhooks DLQ, as the webhooks consumer does.
  const events = consumer('EventsConsumer', 'events', queues.events);
  queue(queues.webhooks.id).grantSendMessages(events);

  // The chatbot consumer answers inbound messages: reply commands to the session's shard queue,
  // `chatbot.reply` deliveries to the webhooks queue.
  // The model chain's users (the chatbot, media understanding): its settings, its keys and, with a
  // Bedrock model configured, the right to invoke that model only.
  const { aiKeys } = props.secrets;
  const modelEnvironment = {
    ...pick(service, 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'AI_FALLBACK_KIND', 'AI_FALLBACK_BASE_URL'),
    ...pick(service, 'AI_FALLBACK_MODEL', 'BEDROCK_MODEL_ID'),
    AI_KEYS_SECRET_ARN: aiKeys.secretArn,
  };
  const grantModels = (fn: lambda.IFunction) => {
    aiKeys.grantRead(fn);
    if (!service.BEDROCK_MODEL_ID) return;
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [
          `arn:${stack.partition}:bedrock:*::foundation-model/${service.BEDROCK_MODEL_ID}`,
          stack.formatArn({
            service: 'bedrock',
            resource: 'inference-profile',
            resourceName: service.BEDROCK_MODEL_ID,
          }),
        ],
      }),
    );
  };
  const chatbot = consumer('ChatbotConsumer', 'chatbot', queues.chatbot, undefined, modelEnvironment);
  grantModels(chatbot);
  for (const cq of props.commandQueues) cq.grantSendMessages(chatbot);
  // Each version of an extracted record is archived as JSON (shared/chatbot/extraction.ts).
  grantMediaWrite(base.media, chatbot, 'extractions/');
  queue(queues.webhooks.id).grantSendMessages(chatbot);
  queue(queues.chatbot.id).grantSendMessages(events);

  // Media analysis (docs/media.md): reads the stored media, publishes the analysed message to the
  // webhooks and chatbot queues. OCR's worker, wasm core and language data ship in its bundle.
  const mediaConsumer = consumer(
    'MediaConsumer',
    'media',
    queues.media,
    10,
    { ...modelEnvironment, ...pick(service, 'STT_BASE_URL', 'SARVAM_BASE_URL') },
    1536,
  );
  grantModels(mediaConsumer);
  // Video needs ffmpeg and ffprobe, which the Lambda runtime lacks: from a layer when one is given.
  if (props.ffmpegLayerArn) {
    mediaConsumer.addLayers(
      lambda.LayerVersion.fromLayerVersionArn(stack, 'FfmpegLayer', props.ffmpegLayerArn),
    );
    mediaConsumer.addEnvironment('VOICE_FFMPEG_PATH', '/opt/bin/ffmpeg');
    mediaConsumer.addEnvironment('VOICE_FFPROBE_PATH', '/opt/bin/ffprobe');
  }
  queue(queues.webhooks.id).grantSendMessages(mediaConsumer);
  queue(queues.chatbot.id).grantSendMessages(mediaConsumer);
  queue(queues.media.id).grantSendMessages(events);

  // At most 20 deliveries batches at once, so a burst cannot take the account's Lambda concurrency.
  const webhooks = consumer('WebhookConsumer', 'webhooks', queues.webhooks, 20);
  // Retries are new delayed messages on the same queue; the last failure is parked on its DLQ.
  queue(queues.webhooks.id).grantSendMessages(webhooks);
  withDlq(queues.webhooks.id).deadLetterQueue.grantSendMessages(webhooks);
  withDlq(queues.webhooks.id).deadLetterQueue.grantSendMessages(events);
  return { events, chatbot, mediaConsumer, webhooks };
}
