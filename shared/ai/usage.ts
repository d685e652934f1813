import {
  TransactionCanceledException,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamoClient } from '../aws/clients.ts';
import { toAttr } from '../store/db.ts';
import { aiUsageEventKey, aiUsageKey, aiUsagesOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { countDaily, type DailyCounts, dailyCountOp } from '../usage/daily.ts';
import type { TokenUsage } from './types.ts';

/** What one handled event adds to a session's AI counters. */
export interface AiUsageDelta {
  aiCalls?: number;
  docAnalyses?: number;
  audioTranscriptions?: number;
  messages?: number;
  tokens?: Partial<TokenUsage>;
  credits?: number;
  /** The event counted (e.g. the inbound message id): a second record for it changes nothing. */
  eventId?: string;
}

/** A session's AI counters since it was created. */
export interface AiUsage {
  sessionId: string;
  aiCalls: number;
  docAnalyses: number;
  audioTranscriptions: number;
  messages: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  credits: number;
  updatedAt?: string;
}

const COUNTERS = [
  'aiCalls',
  'docAnalyses',
  'audioTranscriptions',
  'messages',
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'credits',
] as const;

/** How long an event's marker is kept: longer than any SQS redelivery (retention is at most 14 days). */
const EVENT_MARKER_TTL_S = 15 * 86_400;

function increments(u: AiUsageDelta): Record<(typeof COUNTERS)[number], number> {
  return {
    aiCalls: u.aiCalls ?? 0,
    docAnalyses: u.docAnalyses ?? 0,
    audioTranscriptions: u.audioTranscriptions ?? 0,
    messages: u.messages ?? 0,
    inputTokens: u.tokens?.input ?? 0,
    outputTokens: u.tokens?.output ?? 0,
    cacheReadTokens: u.tokens?.cacheRead ?? 0,
    cacheWriteTokens: u.tokens?.cacheWrite ?? 0,
    credits: u.credits ?? 0,
  };
}

/**
 * Adds to a session's counters atomically (DynamoDB `ADD`, so concurrent consumers never lose a
 * count). With `eventId`, the counters and a marker for the event are written in one transaction
 * that fails when the marker exists: a redelivered message counts once. Answers whether it counted.
 */
export async function recordAiUsage(tenantId: string, sessionId: string, u: AiUsageDelta): Promise<boolean> {
  const add = increments(u);
  const now = new Date().toISOString();
  // The same counts on the day's bucket, for usage over time (shared/usage/daily.ts).
  const daily: Partial<DailyCounts> = {
    aiCalls: add.aiCalls,
    docAnalyses: add.docAnalyses,
    audioTranscriptions: add.audioTranscriptions,
    botReplies: add.messages,
    credits: add.credits,
  };
  if (!u.eventId) {
    await Promise.all([
      dataTable.update(
        aiUsageKey(tenantId, sessionId),
        { type: 'ai-usage', sessionId, updatedAt: now },
        { add },
      ),
      countDaily(tenantId, sessionId, daily),
    ]);
    return true;
  }
  const dayOp = dailyCountOp(tenantId, sessionId, daily);
  const names: Record<string, string> = { '#type': 'type', '#sid': 'sessionId', '#at': 'updatedAt' };
  const values: Record<string, unknown> = { ':type': 'ai-usage', ':sid': sessionId, ':at': now };
  const adds = COUNTERS.map((c, i) => {
    names[`#c${i}`] = c;
    values[`:c${i}`] = add[c];
    return `#c${i} :c${i}`;
  });
  const items: TransactWriteItem[] = [
    dataTable.putIfAbsentOp({
      ...aiUsageEventKey(tenantId, sessionId, u.eventId),
      type: 'ai-usage-event',
      at: now,
      expiresAt: Math.floor(Date.now() / 1000) + EVENT_MARKER_TTL_S,
    }),
    {
      Update: {
        TableName: dataTable.name(),
        Key: toAttr(aiUsageKey(tenantId, sessionId)),
        UpdateExpression: `SET #type = :type, #sid = :sid, #at = :at ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: toAttr(values),
      },
    },
    ...(dayOp ? [dayOp] : []),
  ];
  // Two events of one session in flight at once conflict on the counter item; DynamoDB cancels one
  // (TransactionConflict), which is retried. A failed condition means the event was counted already.
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamoClient().send(new TransactWriteItemsCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 20 * attempt + Math.random() * 30));
    }
  }
}

function toUsage(sessionId: string, it?: Record<string, unknown>): AiUsage {
  const n = (k: string) => Number(it?.[k] ?? 0);
  return {
    sessionId,
    aiCalls: n('aiCalls'),
    docAnalyses: n('docAnalyses'),
    audioTranscriptions: n('audioTranscriptions'),
    messages: n('messages'),
    inputTokens: n('inputTokens'),
    outputTokens: n('outputTokens'),
    cacheReadTokens: n('cacheReadTokens'),
    cacheWriteTokens: n('cacheWriteTokens'),
    credits: n('credits'),
    updatedAt: typeof it?.updatedAt === 'string' ? it.updatedAt : undefined,
  };
}

/** One session's counters (zeros when it never used AI), or every session's of the tenant (one Query). */
export async function readAiUsage(tenantId: string): Promise<AiUsage[]>;
export async function readAiUsage(tenantId: string, sessionId: string): Promise<AiUsage>;
export async function readAiUsage(tenantId: string, sessionId?: string): Promise<AiUsage | AiUsage[]> {
  if (sessionId !== undefined) {
    return toUsage(sessionId, await dataTable.get(aiUsageKey(tenantId, sessionId), true));
  }
  const items = await dataTable.query({ ...aiUsagesOf(tenantId), ascending: true });
  return items.map((it) => toUsage(String(it.sessionId ?? String(it.sk).slice(2)), it));
}
