import { describe, expect, it } from 'vitest';
import { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import { PROFILE_NAMES } from '#shared/chatbot/session-keys';
import { PROFILE_TEMPLATES } from './index.ts';

describe('profile templates', () => {
  it.each(PROFILE_NAMES)(
    '%s: the brain and intents validate, phrases in en and ml, prompt non-empty',
    (name) => {
      const t = PROFILE_TEMPLATES[name];
      const brain = Brain.safeParse(t.brain);
      expect(brain.error?.issues ?? []).toEqual([]);
      expect(brain.data?.business.profile).toBe(name);
      const intents = Intents.safeParse(t.intents);
      expect(intents.error?.issues ?? []).toEqual([]);
      expect(intents.data?.meta.industry).toBe(name);
      for (const intent of intents.data?.intents ?? []) {
        expect(intent.training_phrases.en?.length, intent.id).toBeGreaterThan(0);
        expect(intent.training_phrases.ml?.length, intent.id).toBeGreaterThan(0);
      }
      expect(t.prompt.length).toBeGreaterThan(100);
      expect(Buffer.byteLength(t.prompt)).toBeLessThanOrEqual(32 * 1024);
    },
  );

  it('intent ids are unique across all profiles (a bench may merge them)', () => {
    const ids = PROFILE_NAMES.flatMap((n) => PROFILE_TEMPLATES[n].intents.intents.map((i) => i.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
