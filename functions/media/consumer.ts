import { GetObjectCommand } from '@aws-sdk/client-s3';
import { creditsFor } from '#shared/ai/credits';
import { zeroUsage } from '#shared/ai/types';
import { recordAiUsage } from '#shared/ai/usage';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { queues } from '#shared/aws/resources';
import { enqueueChatbotTurn } from '#shared/chatbot/turn-job';
import { env } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import type { AnalysedKind, MediaJob } from '#shared/media/job';
import type { MessageAnalysis } from '#shared/messages/analysis';
import type { InboundMessage } from '#shared/messages/content';
import type { StoredMessage } from '#shared/messages/message';
import { must } from '#shared/must';
import { feedClock, messageIndexKeys, messageKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { nudgeTenantFeed } from '#shared/stream/feed';
import { inboundMessageWebhook } from '#shared/webhooks/events';
import { ANALYSERS } from './analysers/index.ts';
import type { AnalyserResult, MediaInput } from './analysers/types.ts';

const log = logger.child({ mod: 'media' });

/** Every field null: what a message shows for an analysis that does not apply or failed. */
const EMPTY: Required<MessageAnalysis> = {
  imageDescription: null,
  ocrText: null,
  documentExplanation: null,
  videoDescription: null,
  transcription: null,
  confidence: null,
};

type Outcome = 'published' | 'republished' | 'missing' | 'not media';

/**
 * One media job (docs/media.md, "Pipeline"): analyse the stored message once, store the result and
 * publish the message (tenant feed, `message.inbound` webhook, chatbot turn). A repeated job finds
 * the analysis done and only publishes again, which is idempotent (the delivery id and the chatbot
 * marker derive from the message id). The last receive publishes without analysing, so a message
 * whose analysis keeps crashing is still delivered.
 */
export async function handleMediaJob(job: MediaJob, meta: { receiveCount: number }): Promise<Outcome> {
  const key = messageKey(job.tenantId, job.sessionId, job.messageId);
  const m = await dataTable.get<StoredMessage>(key, true);
  if (!m) {
    log.warn(job, 'media job for a message that is not stored');
    return 'missing';
  }
  if (m.analysisState === 'done') {
    await publish(m);
    return 'republished';
  }
  if (m.analysisState !== 'pending') return 'not media';

  const last = meta.receiveCount >= queues.media.maxReceiveCount;
  const results = last ? [] : await analyse(m);
  if (last)
    log.error({ ...job, receiveCount: meta.receiveCount }, 'media analysis given up; published without it');
  const analysis: MessageAnalysis = { ...EMPTY };
  for (const r of results) {
    for (const [k, v] of Object.entries(r.analysis) as Array<[keyof MessageAnalysis, unknown]>) {
      // The transcription's confidence wins over the OCR's when a message has both.
      if (
        v === null ||
        v === undefined ||
        (k === 'confidence' && analysis.confidence !== null && !r.transcribed)
      )
        continue;
      (analysis as Record<string, unknown>)[k] = v;
    }
  }
  const now = Date.now();
  // Joins the tenant feed now: the stream's pollers look back a short window from the newest.
  const feedAtMs = feedClock();
  const { gsi1pk, gsi1sk } = messageIndexKeys({ ...m, feedAtMs });
  const stored = await dataTable.update<StoredMessage>(
    key,
    { analysis, analysisState: 'done', analysedAt: now, feedAtMs, gsi1pk, gsi1sk },
    { condition: 'analysisState = :pending', values: { ':pending': 'pending' } },
  );
  if (stored) {
    await countUsage(m, results);
    await publish(stored, true);
    return 'published';
  }
  // Another run finished first: publish what it stored.
  const other = await dataTable.get<StoredMessage>(key, true);
  if (other) await publish(other);
  return 'republished';
}

/** Runs the message's analysers side by side within MEDIA_ANALYSIS_TIMEOUT_MS; a failure is a null field. */
async function analyse(m: StoredMessage): Promise<AnalyserResult[]> {
  const kind = m.kind as AnalysedKind;
  const analysers = ANALYSERS[kind] ?? [];
  const ids = { tenantId: m.tenantId, sessionId: m.sessionId, messageId: m.messageId, kind };
  let bytes: Uint8Array;
  try {
    const got = await s3Client().send(
      new GetObjectCommand({ Bucket: names.mediaBucket(), Key: must(m.mediaKey, 'the stored media key') }),
    );
    bytes = await must(got.Body, 'the media object body').transformToByteArray();
  } catch (err) {
    log.error({ ...ids, err }, 'media analysis: the stored media could not be read');
    return [];
  }
  const input: MediaInput = {
    tenantId: m.tenantId,
    sessionId: m.sessionId,
    messageId: m.messageId,
    kind,
    mimetype: m.mimetype ?? 'application/octet-stream',
    fileName: m.fileName,
    caption: m.caption,
    bytes,
  };
  const signal = AbortSignal.timeout(env().MEDIA_ANALYSIS_TIMEOUT_MS);
  const timedOut = new Promise<never>((_, reject) => {
    signal.addEventListener(
      'abort',
      () => reject(Object.assign(new Error('analysis timed out'), { code: 'TIMEOUT' })),
      {
        once: true,
      },
    );
  });
  timedOut.catch(() => {});
  const settled = await Promise.all(
    analysers.map(async ([name, run]) => {
      const started = Date.now();
      try {
        const r = await Promise.race([run(input, { signal }), timedOut]);
        log.info({ ...ids, analyser: name, ms: Date.now() - started }, 'media analysis done');
        return r;
      } catch (err) {
        const e = err as { code?: string; message?: string };
        log.warn(
          { ...ids, analyser: name, code: e.code ?? 'FAILED', reason: e.message, ms: Date.now() - started },
          'media analysis failed; its fields stay null',
        );
        return undefined;
      }
    }),
  );
  return settled.filter((r): r is AnalyserResult => r !== undefined);
}

/** AI telemetry, once per message (the event id): a document analysis or a transcription, and model calls. */
async function countUsage(m: StoredMessage, results: AnalyserResult[]): Promise<void> {
  const calls = results.flatMap((r) => r.modelCalls ?? []);
  const tokens = zeroUsage();
  for (const c of calls) {
    tokens.input += c.usage.input;
    tokens.output += c.usage.output;
    tokens.cacheRead += c.usage.cacheRead;
    tokens.cacheWrite += c.usage.cacheWrite;
  }
  const transcribed = results.some((r) => r.transcribed);
  const documentLike = m.kind === 'image' || m.kind === 'document' || m.kind === 'video';
  if (!calls.length && !transcribed && !documentLike) return;
  try {
    await recordAiUsage(m.tenantId, m.sessionId, {
      aiCalls: calls.length,
      docAnalyses: documentLike ? 1 : 0,
      audioTranscriptions: transcribed ? 1 : 0,
      tokens,
      credits: creditsFor(tokens),
      eventId: `media:${m.messageId}`,
    });
  } catch (err) {
    // Telemetry never holds a message back.
    log.error({ err, messageId: m.messageId }, 'media analysis usage not recorded');
  }
}

/** The message as the pipeline saw it on arrival, for the webhook and the chatbot job. */
function inboundOf(m: StoredMessage): InboundMessage {
  return {
    id: m.messageId,
    chatId: m.chatId,
    senderPhone: m.senderPhone,
    senderLid: m.senderLid,
    senderName: m.senderName,
    groupId: m.groupId,
    kind: m.kind as InboundMessage['kind'],
    text: m.text,
    caption: m.caption,
    fileName: m.fileName,
    mimetype: m.mimetype,
    mediaKey: m.mediaKey,
    timestampMs: m.timestampMs,
    backlog: m.backlog,
  };
}

/**
 * Stream, webhook and chatbot learn of the message now, with what its analysis found. `justStored`:
 * this run stored the analysis, so this process's stream clients get the message without a read (a
 * repeated job only wakes the poller, which never sends a message twice).
 */
async function publish(m: StoredMessage, justStored = false): Promise<void> {
  nudgeTenantFeed(m.tenantId, justStored ? [m] : undefined);
  const inbound = inboundOf(m);
  await Promise.all([
    inboundMessageWebhook(m.tenantId, m.sessionId, inbound, m.analysis),
    // A voice note's words are its transcription: the chatbot answers what was said.
    enqueueChatbotTurn(m.tenantId, m.sessionId, {
      ...inbound,
      text: inbound.text ?? inbound.caption ?? m.analysis?.transcription ?? undefined,
    }),
  ]);
}
