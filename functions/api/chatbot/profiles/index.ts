import type { ProfileName } from '#shared/chatbot/session-keys';
import { appliances } from './appliances.ts';
import { clinic } from './clinic.ts';
import { ecommerce } from './ecommerce.ts';
import { salon } from './salon.ts';
import type { ProfileTemplate } from './template.ts';

export type { ProfileTemplate } from './template.ts';

/** The starting brain, prompt and intents of each tenant profile (`GET /api/v1/chatbot/templates/{profile}`). */
export const PROFILE_TEMPLATES: Record<ProfileName, ProfileTemplate> = {
  clinic,
  appliances,
  ecommerce,
  salon,
};
