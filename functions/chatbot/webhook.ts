import type { ExtractionRecord } from '#shared/chatbot/extraction';
import type { StoredMessage } from '#shared/messages/message';
import { must } from '#shared/must';
import type { Session } from '#shared/sessions/session';
import { enqueueWebhook } from '#shared/webhooks/enqueue';
import type { Decision } from './evaluate.ts';
import { textOf } from './history.ts';

export interface ChatbotReplyPayload {
  event: 'chatbot.reply';
  session_id: string;
  mobid: string | null;
  chat_id: string;
  sender: string | null;
  /** The newest inbound message of the turn (the one answered), and every message of the turn. */
  message_id: string;
  message_ids: string[];
  query: string;
  history: Array<{ direction: 'inbound' | 'outbound'; message_id: string; text: string; timestamp: number }>;
  media_analysis: null;
  /** The booking or lead record this turn created or changed (docs/extraction.md), else null. */
  extracted: ExtractionRecord | null;
  reply: { message_id: string; text: string } | null;
  tier: 'rule' | 'intent' | 'model';
  rule_id: string | null;
  intent: { id: string; score: number; match: 'rule' | 'semantic' } | null;
  /**
   * The intents the engine weighed, best first (at most three), and why it left the turn to the
   * model; both null when the intent engine was not asked (a static rule answered first).
   */
  intent_candidates: Array<{ id: string; score: number; match: 'rule' | 'semantic' }> | null;
  defer_reason: string | null;
  model: { provider_tier: 'primary' | 'fallback' | 'bedrock'; key_index: number; model: string } | null;
  tokens: { input: number; output: number; cache_read: number; cache_write: number } | null;
  credits: number;
  latency_ms: { total: number; model: number | null };
  error: string | null;
  timestamp: number;
}

export function chatbotReplyPayload(p: {
  session: Session;
  chatId: string;
  inbound: StoredMessage[];
  history: StoredMessage[];
  decision: Exclude<Decision, { kind: 'silent' }>;
  reply?: { messageId: string; text: string };
  credits: number;
  totalMs: number;
  extracted?: ExtractionRecord;
}): ChatbotReplyPayload {
  const d = p.decision;
  const newest = must(p.inbound.at(-1), 'an inbound message the reply answers');
  const model = d.kind === 'reply' ? d.model : undefined;
  return {
    event: 'chatbot.reply',
    session_id: p.session.sessionId,
    mobid: p.session.mobid ?? null,
    chat_id: p.chatId,
    sender: newest.senderPhone,
    message_id: newest.messageId,
    message_ids: p.inbound.map((m) => m.messageId),
    query: p.inbound.map(textOf).join('\n'),
    history: p.history.map((m) => ({
      direction: m.direction,
      message_id: m.messageId,
      text: textOf(m),
      timestamp: Math.floor(m.timestampMs / 1000),
    })),
    media_analysis: null,
    extracted: p.extracted ?? null,
    reply: p.reply ? { message_id: p.reply.messageId, text: p.reply.text } : null,
    tier: d.tier,
    rule_id: d.ruleId ?? null,
    intent: d.kind === 'reply' ? (d.intent ?? null) : null,
    intent_candidates: d.explanation?.candidates ?? null,
    defer_reason: d.explanation?.deferReason ?? null,
    model: model
      ? { provider_tier: model.providerTier, key_index: model.keyIndex, model: model.model }
      : null,
    tokens: model
      ? {
          input: model.usage.input,
          output: model.usage.output,
          cache_read: model.usage.cacheRead,
          cache_write: model.usage.cacheWrite,
        }
      : null,
    credits: p.credits,
    latency_ms: { total: p.totalMs, model: model?.latencyMs ?? null },
    error: d.kind === 'failed' ? d.error : null,
    timestamp: Math.floor(Date.now() / 1000),
  };
}

/** A separate delivery per handled turn, signed and retried like the others; one per answered message. */
export function chatbotReplyWebhook(tenantId: string, payload: ChatbotReplyPayload) {
  return enqueueWebhook(tenantId, payload.session_id, 'chatbot.reply', payload, {
    dedupKey: `${payload.session_id}:${payload.message_id}`,
  });
}
