import { ModelUnavailableError } from './errors.ts';
import type { AiContentBlock, AiTurn, ModelRequest } from './types.ts';

/** Used when the session has no persona prompt of its own (nor a global one). */
export const DEFAULT_PERSONA =
  "You answer the business's customers on WhatsApp. Reply briefly and politely, in the customer's " +
  'language, like a person on the team. Use only the business knowledge given; when it does not say, ' +
  'say you will check with the team. Never invent prices, slots or stock.';

export interface SystemPart {
  text: string;
  /** Part of the stable prefix, marked for the provider's prompt cache. */
  cached: boolean;
}

/**
 * The system prompt in order: persona, then the brain as JSON (each a cache breakpoint, so a brain
 * update still reuses the cached persona), then the turn's own instructions, which are never cached.
 */
export function systemParts(system: ModelRequest['system']): SystemPart[] {
  const parts: SystemPart[] = [{ text: system.persona?.trim() || DEFAULT_PERSONA, cached: true }];
  if (system.brain !== undefined && system.brain !== null) {
    parts.push({ text: `Business knowledge (JSON):\n${JSON.stringify(system.brain)}`, cached: true });
  }
  if (system.instructions?.trim()) {
    parts.push({ text: `Instructions for this reply:\n${system.instructions.trim()}`, cached: false });
  }
  return parts;
}

export interface NormalisedTurn {
  role: 'user' | 'assistant';
  content: AiContentBlock[];
}

/**
 * Turns as every provider accepts them: blank turns dropped, consecutive turns of one role merged,
 * starting and ending with the customer. With no customer turn left, `ModelUnavailableError`: the
 * chatbot answers nothing rather than failing the job again on every redelivery.
 */
export function normaliseTurns(turns: AiTurn[]): NormalisedTurn[] {
  const out: NormalisedTurn[] = [];
  for (const t of turns) {
    const content = t.content?.length
      ? t.content
      : t.text.trim()
        ? [{ type: 'text' as const, text: t.text }]
        : [];
    if (!content.length) continue;
    const last = out.at(-1);
    if (last?.role === t.role) last.content.push(...content);
    else if (out.length || t.role === 'user') out.push({ role: t.role, content: [...content] });
  }
  while (out.at(-1)?.role === 'assistant') out.pop();
  if (!out.length) throw new ModelUnavailableError([], 'the conversation has no customer turn to answer');
  return out;
}
