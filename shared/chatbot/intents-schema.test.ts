import { describe, expect, it } from 'vitest';
import { INTENTS_LIMITS, Intents } from './intents-schema.ts';

const intent = (id: string, phrases: string[]) => ({
  id,
  category: 'info',
  action: 'answer',
  training_phrases: { en: phrases },
});

describe('Intents schema', () => {
  it('fills the documented defaults and keeps other keys', () => {
    const v = Intents.parse({
      meta: { industry: 'clinic', owner: 'x' },
      intents: [intent('a', ['hi'])],
      extra: 1,
    });
    expect(v.runtime_policy.confidence_policy).toEqual({
      rule_match_no_ai: 0.9,
      semantic_match_no_ai: 0.84,
      skip_llm_simple_template: true,
    });
    expect(v.intents[0]?.enabled).toBe(true);
    expect(v.meta).toEqual({ industry: 'clinic', owner: 'x' });
    expect((v as Record<string, unknown>).extra).toBe(1);
    const custom = Intents.parse({
      runtime_policy: { confidence_policy: { semantic_match_no_ai: 0.8, margin: 0.05 } },
      intents: [],
    });
    expect(custom.runtime_policy.confidence_policy).toMatchObject({
      rule_match_no_ai: 0.9,
      semantic_match_no_ai: 0.8,
      margin: 0.05,
    });
  });

  it('enforces the limits with the path of the offending field', () => {
    const tooMany = Array.from({ length: INTENTS_LIMITS.intents + 1 }, (_, i) => intent(`i${i}`, ['x']));
    expect(Intents.safeParse({ intents: tooMany }).error?.issues[0]?.path).toEqual(['intents']);
    const phrases = Array.from({ length: 1_001 }, (_, i) => `phrase ${i}`);
    const heavy = Array.from({ length: 20 }, (_, i) => intent(`h${i}`, phrases));
    const err = Intents.safeParse({ intents: heavy }).error?.issues[0];
    expect(err?.path).toEqual(['intents']);
    expect(err?.message).toMatch(/at most 20000 training phrases/);
    const long = Intents.safeParse({ intents: [intent('a', ['x'.repeat(301)])] }).error?.issues[0];
    expect(long?.path).toEqual(['intents', 0, 'training_phrases', 'en', 0]);
    const lang = Intents.safeParse({
      intents: [{ ...intent('a', []), training_phrases: { 'not a code': ['x'] } }],
    });
    expect(lang.success).toBe(false);
  });
});
