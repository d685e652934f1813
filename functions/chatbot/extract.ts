import { createModelChain, type ModelChain } from '#shared/ai/chain';
import { creditsFor } from '#shared/ai/credits';
import { recordAiUsage } from '#shared/ai/usage';
import {
  EXTRACTION_TOOL,
  ExtractionAnswer,
  type ExtractionRecord,
  saveExtraction,
} from '#shared/chatbot/extraction';
import { logger } from '#shared/log/logger';
import type { Turn } from './history.ts';

let chain: ModelChain | undefined;
const modelChain = () => {
  chain ??= createModelChain();
  return chain;
};

const INSTRUCTIONS = [
  'You read a WhatsApp conversation between a business (assistant) and a customer (user) and record',
  'the booking or lead it contains by calling the tool. A booking has a service and a time; a lead is',
  'a customer interested in a product or service without a booked time. Use the latest values the',
  'customer gave (a changed time replaces the old one). `when` is an ISO 8601 date-time or null.',
  '`phone` is digits only. Call the tool with found=false when there is no booking or lead.',
].join(' ');

export interface ExtractInput {
  tenantId: string;
  sessionId: string;
  mobid?: string;
  chatId: string;
  sessionKeys: string[];
  /** The conversation, oldest first (the reply of this turn included when there was one). */
  turns: Turn[];
  /** The inbound messages of this turn: the record's sources, and the usage event. */
  messageIds: string[];
}

/**
 * Structured extraction for one turn (docs/extraction.md): one model call with the record tool
 * forced; a valid answer becomes (or updates) the chat's record, an invalid one is dropped with a
 * logged reason, `found: false` writes nothing. The call is counted in the session's AI usage.
 * Answers the record when this turn created or changed it.
 */
export async function extractTurn(input: ExtractInput): Promise<ExtractionRecord | undefined> {
  const log = logger.child({ sessionId: input.sessionId, chatId: input.chatId, mod: 'extraction' });
  const turns = input.turns.filter((t) => t.text.trim());
  if (!turns.some((t) => t.role === 'user')) return undefined;
  let reply: Awaited<ReturnType<ModelChain['reply']>>;
  try {
    reply = await modelChain().reply({
      tenantId: input.tenantId,
      sessionId: input.sessionId,
      system: { persona: INSTRUCTIONS },
      turns,
      tools: [EXTRACTION_TOOL],
      toolChoice: EXTRACTION_TOOL.name,
    });
  } catch (err) {
    if ((err as Error)?.name !== 'ModelUnavailableError') throw err;
    log.warn({ err: (err as Error).message }, 'extraction: model unavailable');
    return undefined;
  }
  const newest = input.messageIds.at(-1) ?? 'turn';
  await recordAiUsage(input.tenantId, input.sessionId, {
    aiCalls: 1,
    tokens: reply.usage,
    credits: creditsFor(reply.usage),
    eventId: `${newest}#extract`,
  });
  if (reply.toolInput === undefined) {
    log.warn({ reason: 'the model did not call the tool' }, 'extraction: answer dropped');
    return undefined;
  }
  const parsed = ExtractionAnswer.safeParse(reply.toolInput);
  if (!parsed.success) {
    const reason = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
      .join('; ');
    log.warn({ reason }, 'extraction: invalid answer dropped');
    return undefined;
  }
  const answer = parsed.data;
  if (!answer.found) return undefined;
  if (!answer.type) {
    log.warn({ reason: 'type: required when found' }, 'extraction: invalid answer dropped');
    return undefined;
  }
  const { record, changed } = await saveExtraction({
    tenantId: input.tenantId,
    sessionId: input.sessionId,
    mobid: input.mobid,
    chatId: input.chatId,
    sessionKeys: input.sessionKeys,
    answer: { ...answer, type: answer.type },
    sourceMessageIds: input.messageIds,
  });
  log.info({ recordId: record.recordId, version: record.version, changed }, 'extraction');
  return changed ? record : undefined;
}
