import { z } from '@hono/zod-openapi';
import { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import type { ProfileName } from '#shared/chatbot/session-keys';
import { PromptText } from '../knowledge-common.ts';

/**
 * A ready-made starting point for one tenant profile: brain, persona prompt and intents file, held as
 * data (`<profile>.json` beside this file) and checked against the same schemas a tenant's own brain,
 * prompt and intents are checked against when stored.
 */
export const ProfileTemplateSchema = z
  .object({ brain: Brain, prompt: PromptText, intents: Intents })
  .strict()
  .superRefine((t, ctx) => {
    if (t.brain.business.profile !== t.intents.meta.industry)
      ctx.addIssue({
        code: 'custom',
        path: ['intents', 'meta', 'industry'],
        message: `"${t.intents.meta.industry}" differs from brain.business.profile "${t.brain.business.profile}"`,
      });
  });

/** A profile template as its file is written: intents' defaults (thresholds, `enabled`) left out. */
export type ProfileTemplate = z.input<typeof ProfileTemplateSchema>;

/**
 * Checks one profile file at load and answers it as written: the template is served as the starting
 * point a tenant edits, so the defaults the schema would fill in stay out of it, as before. A file that
 * does not validate (or names another profile) stops the module from loading, with the reasons.
 */
export function loadProfile(name: ProfileName, data: unknown): ProfileTemplate {
  const parsed = ProfileTemplateSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(`chatbot profile "${name}" is not valid:\n${z.prettifyError(parsed.error)}`);
  if (parsed.data.brain.business.profile !== name)
    throw new Error(
      `chatbot profile "${name}" describes brain.business.profile "${parsed.data.brain.business.profile}"`,
    );
  // Validated just above; the input type is the file's own shape.
  return data as ProfileTemplate;
}
