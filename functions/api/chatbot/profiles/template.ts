import type { Brain } from '#shared/chatbot/brain-schema';
import type { IntentsInput } from '#shared/chatbot/intents-schema';

/** A ready-made starting point for one tenant profile: brain, persona prompt and intents file. */
export interface ProfileTemplate {
  brain: Brain;
  prompt: string;
  intents: IntentsInput;
}
