import { z } from '@hono/zod-openapi';
import { Brain } from '#shared/chatbot/brain-schema';
import { putBrain, putPrompt, resolveBrain, resolvePrompt } from '#shared/chatbot/knowledge';
import type { KnowledgeDocument } from './document-routes.schema.ts';
import { fetchRemoteBrain, fetchRemotePrompt, PromptText } from './knowledge-common.ts';

/**
 * The knowledge documents kept per session key, side by side: what differs between them is all
 * there is (document-routes.ts serves each at `/<name>` under `/api/v1/chatbot`).
 */

/** `/brain`: the knowledge base per session key. */
export const BRAIN: KnowledgeDocument<'brain', Brain> = {
  name: 'brain',
  dataField: 'brainData',
  urlField: 'brainUrl',
  input: Brain,
  output: z.record(z.string(), z.unknown()),
  describe: {
    data: 'the brain itself (docs/chatbot.md)',
    url: 'a URL answering the brain as JSON, read now',
    get: 'The brain that applies to a session key (falling back to the profile, then global)',
    post: 'Save a brain for a session key: given directly (brainData) or read now from brainUrl',
  },
  resolve: resolveBrain,
  put: putBrain,
  fetchRemote: fetchRemoteBrain,
};

/** `/prompt`: the persona prompt per session key. */
export const PROMPT: KnowledgeDocument<'prompt', string> = {
  name: 'prompt',
  dataField: 'prompt',
  urlField: 'promptUrl',
  input: PromptText,
  output: z.string(),
  describe: {
    data: 'persona instructions, at most 32 KiB',
    url: 'a URL answering the prompt as text, read now',
    get: 'The persona prompt that applies to a session key (falling back to the profile, then global)',
    post: 'Save a persona prompt for a session key: given directly or read now from promptUrl',
  },
  resolve: resolvePrompt,
  put: putPrompt,
  fetchRemote: fetchRemotePrompt,
};
