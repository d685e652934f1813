import { creditsFor } from '#shared/ai/credits';
import { recordAiUsage } from '#shared/ai/usage';
import type { ChatbotJob } from '#shared/chatbot/job';
import { tenantProfile } from '#shared/chatbot/knowledge';
import { sessionKeysOf } from '#shared/chatbot/session-keys';
import { readSwitches } from '#shared/chatbot/switches';
import { activeTakeover } from '#shared/chatbot/takeover';
import { env } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import { getSession } from '#shared/sessions/repository';
import { chatbotTurnKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { pendingTurn } from './debounce.ts';
import { type Decision, evaluateTurn } from './evaluate.ts';
import { extractTurn } from './extract.ts';
import { recentMessages, textOf, turnsOf } from './history.ts';
import { dispatchReply } from './reply.ts';
import { chatbotReplyPayload, chatbotReplyWebhook } from './webhook.ts';

/** A claim older than this is a dead worker's: longer than a turn can take (three model hops of AI_TIMEOUT_MS), under the queue's visibility timeout (180 s). */
const CLAIM_STALE_MS = 120_000;
const MARKER_TTL_S = 7 * 86_400;

export type JobOutcome =
  | 'done'
  | 'already handled'
  | 'too old'
  | 'no session'
  | 'superseded'
  | 'missing'
  | 'answered since'
  | 'own message'
  | 'pure extractor'
  | 'chatbot disabled'
  | 'human takeover'
  | 'model unavailable';

/**
 * One chatbot job: claims the inbound message (a conditional marker item, so a redelivered or
 * duplicated job answers once), applies the debounce, evaluates the turn, dispatches the reply to
 * the host, records AI usage and queues the `chatbot.reply` webhook.
 */
export async function handleChatbotJob(job: ChatbotJob): Promise<JobOutcome> {
  const started = Date.now();
  const log = logger.child({ sessionId: job.sessionId, messageId: job.messageId });
  if (started - job.timestampMs > env().CHATBOT_MAX_MESSAGE_AGE_S * 1000) return 'too old';
  const marker = chatbotTurnKey(job.tenantId, job.sessionId, job.messageId);
  const claimed = await dataTable.update(
    marker,
    {
      type: 'chatbot-turn',
      state: 'claimed',
      at: started,
      expiresAt: Math.floor(started / 1000) + MARKER_TTL_S,
    },
    {
      condition: 'attribute_not_exists(pk) OR (#state = :claimed AND #at < :stale)',
      names: { '#state': 'state', '#at': 'at' },
      values: { ':claimed': 'claimed', ':stale': started - CLAIM_STALE_MS },
    },
  );
  if (!claimed) return 'already handled';
  const finish = async (outcome: JobOutcome, extra: Record<string, unknown> = {}) => {
    await dataTable.update(marker, { state: 'done', outcome, at: Date.now(), ...extra });
    if (outcome !== 'done') log.debug({ outcome }, 'chatbot: no reply');
    return outcome;
  };

  const session = await getSession(job.tenantId, job.sessionId);
  if (session?.dbStatus !== 'active') return finish('no session');
  const history = env().CHATBOT_HISTORY_TURNS;
  const recent = await recentMessages(job.tenantId, job.sessionId, job.chatId, Math.max(history, 1) + 20);
  const pending = pendingTurn(recent, job.messageId);
  if (pending.kind !== 'answer') return finish(pending.kind);
  const newest = pending.inbound[pending.inbound.length - 1];
  if (!newest) return finish('missing');
  if (session.mobile_number && newest.senderPhone === session.mobile_number) return finish('own message');

  const profile = await tenantProfile(job.tenantId);
  const keys = sessionKeysOf(
    { sessionId: session.sessionId, mobid: session.mobid, mobile: session.mobile_number },
    profile,
  );
  const turns = turnsOf(recent, history);
  const [switches, takeover] = await Promise.all([
    readSwitches(job.tenantId, keys),
    activeTakeover(job.tenantId, job.sessionId, job.chatId),
  ]);
  // A person of the business has the chat (docs/chatbot.md, "Human takeover"): no rule, intent or
  // model answers it; extraction below still runs.
  const decision: Decision = takeover
    ? { kind: 'silent', reason: 'human takeover' }
    : await evaluateTurn({
        tenantId: job.tenantId,
        sessionId: job.sessionId,
        keys,
        text: pending.inbound.map(textOf).join('\n'),
        lastText: textOf(newest),
        turns,
      });
  // Structured extraction (docs/extraction.md) runs whenever it is on, replies or not.
  const extract = (withReply?: string) =>
    switches.extractionEnabled
      ? extractTurn({
          tenantId: job.tenantId,
          sessionId: job.sessionId,
          mobid: session.mobid,
          chatId: job.chatId,
          sessionKeys: keys,
          turns: withReply ? [...turns, { role: 'assistant', text: withReply }] : turns,
          messageIds: pending.inbound.map((m) => m.messageId),
        }).catch((err) => {
          log.error({ err }, 'extraction failed');
          return undefined;
        })
      : Promise.resolve(undefined);
  if (decision.kind === 'silent') {
    await extract();
    return finish(decision.reason);
  }

  const reply =
    decision.kind === 'reply'
      ? {
          text: decision.text,
          ...(await dispatchReply(
            session,
            job.chatId,
            job.messageId,
            decision.text,
            voiceReplyFor(newest, decision.text, switches.voiceReplies),
          )),
        }
      : undefined;
  const extracted = await extract(reply?.text);
  const model = decision.kind === 'reply' ? decision.model : undefined;
  const credits = model ? creditsFor(model.usage) : 0;
  const totalMs = Date.now() - started;
  await Promise.all([
    recordAiUsage(job.tenantId, job.sessionId, {
      aiCalls: decision.tier === 'model' ? 1 : 0,
      messages: reply ? 1 : 0,
      tokens: model?.usage,
      credits,
      eventId: job.messageId,
    }),
    chatbotReplyWebhook(
      job.tenantId,
      chatbotReplyPayload({
        session,
        chatId: job.chatId,
        inbound: pending.inbound,
        history: recent.slice(0, history).reverse(),
        decision,
        reply,
        credits,
        totalMs,
        extracted,
      }),
    ),
  ]);
  log.info(
    {
      tier: decision.tier,
      // Intent ids and scores only: never the customer's text.
      intentCandidates: decision.explanation?.candidates,
      deferReason: decision.explanation?.deferReason ?? undefined,
      replied: Boolean(reply),
      turnMessages: pending.inbound.length,
      totalMs,
      sinceMessageMs: Date.now() - newest.timestampMs,
    },
    'chatbot turn',
  );
  return finish(decision.kind === 'reply' ? 'done' : 'model unavailable', {
    tier: decision.tier,
    replyId: reply?.messageId,
  });
}

/**
 * A customer who wrote by voice is answered by voice when the session's `voiceReplies` switch is on,
 * in the reply's script: Malayalam letters → Malayalam, otherwise English (docs/chatbot.md).
 */
export function voiceReplyFor(
  newest: { kind: string },
  reply: string,
  voiceReplies: boolean,
): { lang: string } | undefined {
  if (!voiceReplies || (newest.kind !== 'voice' && newest.kind !== 'audio')) return undefined;
  return { lang: /[\u0D00-\u0D7F]/.test(reply) ? 'ml' : 'en' };
}
