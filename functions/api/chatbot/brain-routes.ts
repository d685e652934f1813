import { z } from '@hono/zod-openapi';
import { Brain } from '#shared/chatbot/brain-schema';
import { putBrain, resolveBrain } from '#shared/chatbot/knowledge';
import { documentRoutes } from './document-routes.ts';
import { fetchRemoteBrain } from './knowledge-common.ts';

/** `/brain`: the knowledge base per session key (mounted under `/api/v1/chatbot`). */
export const brainRoutes = () =>
  documentRoutes({
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
    resolve: async (tenant, keys) => {
      const hit = await resolveBrain(tenant, keys);
      return hit && { key: hit.key, value: hit.brain, meta: hit.meta };
    },
    put: putBrain,
    fetchRemote: (url) => fetchRemoteBrain(url),
  });
