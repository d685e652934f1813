import type { ProfileName } from '#shared/chatbot/session-keys';
import appliances from './appliances.json' with { type: 'json' };
import clinic from './clinic.json' with { type: 'json' };
import ecommerce from './ecommerce.json' with { type: 'json' };
import salon from './salon.json' with { type: 'json' };
import { loadProfile, type ProfileTemplate } from './template.ts';

export type { ProfileTemplate } from './template.ts';

/**
 * The starting brain, prompt and intents of each tenant profile (`GET /api/v1/chatbot/templates/{profile}`),
 * validated when this module loads. The JSON files are bundled into the API Lambda (esbuild inlines them):
 * - clinic: a family clinic in Kochi: doctors with weekly slots, services with fees, booking rules;
 * - appliances: an appliance showroom and service centre: products, warranty periods, service visits;
 * - ecommerce: an online shop: stock list with SKUs, shipping, returns, cash on delivery;
 * - salon: a unisex salon: stylists with weekly slots, a price list, booking and cancellation rules.
 */
export const PROFILE_TEMPLATES: Record<ProfileName, ProfileTemplate> = {
  clinic: loadProfile('clinic', clinic),
  appliances: loadProfile('appliances', appliances),
  ecommerce: loadProfile('ecommerce', ecommerce),
  salon: loadProfile('salon', salon),
};
