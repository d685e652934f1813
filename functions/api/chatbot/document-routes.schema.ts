import { z } from '@hono/zod-openapi';
import type { DocumentMeta, KnowledgeSource } from '#shared/chatbot/knowledge';
import { ok, routesTagged } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { DocumentMetaSchema, oneOf, RemoteUrl, SessionKeyInput } from './knowledge-common.ts';

/**
 * A knowledge document kept per session key (the brain, the persona prompt): what differs between
 * them. `GET /<name>` resolves it through the key's precedence; `POST /<name>` stores it, given
 * directly in `<dataField>` or read now from `<urlField>`.
 */
export interface KnowledgeDocument<N extends 'brain' | 'prompt', T> {
  name: N;
  /** The body field holding the document itself (`brainData`, `prompt`). */
  dataField: string;
  /** The body field holding a URL to read it from (`brainUrl`, `promptUrl`). */
  urlField: string;
  /** What a request may send in `dataField`. */
  input: z.ZodType<T>;
  /** The document in a GET answer, under `name`. */
  output: z.ZodType;
  describe: { data: string; url: string; get: string; post: string };
  /** The document of the first of `keys` that has one, under its `name`. */
  resolve(
    tenantId: string,
    keys: string[],
  ): Promise<({ key: string; meta: DocumentMeta } & Record<N, T>) | undefined>;
  put(tenantId: string, key: string, value: T, src: KnowledgeSource): Promise<DocumentMeta>;
  fetchRemote(url: string): Promise<T>;
}

const route = routesTagged('chatbot');

/** The definitions of the two routes of one knowledge document (document-routes.ts). */
export function documentRouteDefs<N extends 'brain' | 'prompt', T>(doc: KnowledgeDocument<N, T>) {
  const Body = z
    .object({
      sessionKey: SessionKeyInput.default('global'),
      [doc.dataField]: doc.input.optional().openapi({ description: doc.describe.data }),
      [doc.urlField]: RemoteUrl.optional().openapi({ description: doc.describe.url }),
    })
    .superRefine(oneOf(doc.dataField, doc.urlField));
  const readRoute = route({
    method: 'get',
    path: `/${doc.name}`,
    middleware: [requireAuth] as const,
    summary: doc.describe.get,
    request: { query: z.object({ sessionKey: SessionKeyInput.default('global') }) },
    responses: {
      200: ok({
        sessionKey: z.string(),
        resolvedFrom: z.string().openapi({ description: `the key the ${doc.name} is stored under` }),
        [doc.name]: doc.output,
        [doc.urlField]: z.string().optional(),
        ...DocumentMetaSchema,
      }),
    },
  });
  const saveRoute = route({
    method: 'post',
    path: `/${doc.name}`,
    middleware: [requireAuth] as const,
    summary: doc.describe.post,
    request: { body: { content: { 'application/json': { schema: Body } } } },
    responses: {
      200: ok({
        sessionKey: z.string(),
        [doc.urlField]: z.string().optional(),
        ...DocumentMetaSchema,
      }),
    },
  });
  return { readRoute, saveRoute };
}
