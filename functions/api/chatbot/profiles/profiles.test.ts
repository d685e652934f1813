import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import { PROFILE_NAMES } from '#shared/chatbot/session-keys';
import { PROFILE_TEMPLATES } from './index.ts';
import { loadProfile, ProfileTemplateSchema } from './template.ts';

const dir = new URL('./', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const fileOf = (name: string): unknown => JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8'));

describe('profile templates', () => {
  it('one JSON file per profile, no other', () => {
    expect(files.sort()).toEqual(PROFILE_NAMES.map((n) => `${n}.json`).sort());
  });

  it.each(files)('%s parses against the profile schema', (file) => {
    const r = ProfileTemplateSchema.safeParse(fileOf(file.replace(/\.json$/, '')));
    expect(r.error?.issues ?? []).toEqual([]);
  });

  it.each(PROFILE_NAMES)('%s: loaded exactly as its file', (name) => {
    expect(PROFILE_TEMPLATES[name]).toStrictEqual(fileOf(name));
  });

  it('a file is answered as written: defaults the schema would fill in stay out', () => {
    const clinic = fileOf('clinic') as { intents: { intents: Record<string, unknown>[] } };
    for (const intent of clinic.intents.intents) delete intent.enabled;
    expect(loadProfile('clinic', clinic)).toBe(clinic);
    expect(clinic.intents.intents.some((i) => 'enabled' in i)).toBe(false);
  });

  it('a file that does not validate, or names another profile, stops the load with its reasons', () => {
    const clinic = fileOf('clinic') as { brain: { business: Record<string, unknown> }; prompt: string };
    expect(() => loadProfile('clinic', { ...clinic, prompt: '' })).toThrow(
      /chatbot profile "clinic" is not valid:[\s\S]*prompt/,
    );
    expect(() => loadProfile('salon', clinic)).toThrow(
      'chatbot profile "salon" describes brain.business.profile "clinic"',
    );
    const { prompt: _, ...noPrompt } = clinic;
    expect(() => loadProfile('clinic', noPrompt)).toThrow(/prompt/);
    const mismatched = {
      ...clinic,
      brain: { ...clinic.brain, business: { ...clinic.brain.business, profile: 'salon' } },
    };
    expect(() => loadProfile('clinic', mismatched)).toThrow(/differs from brain\.business\.profile "salon"/);
  });

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
