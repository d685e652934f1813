import { z } from '@hono/zod-openapi';
import { putPrompt, resolvePrompt } from '#shared/chatbot/knowledge';
import { documentRoutes } from './document-routes.ts';
import { fetchRemotePrompt, PromptText } from './knowledge-common.ts';

/** `/prompt`: the persona prompt per session key (mounted under `/api/v1/chatbot`). */
export const promptRoutes = () =>
  documentRoutes({
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
    resolve: async (tenant, keys) => {
      const hit = await resolvePrompt(tenant, keys);
      return hit && { key: hit.key, value: hit.prompt, meta: hit.meta };
    },
    put: putPrompt,
    fetchRemote: (url) => fetchRemotePrompt(url),
  });
