import { createRoute, z } from '@hono/zod-openapi';
import type { DocumentMeta, KnowledgeSource } from '#shared/chatbot/knowledge';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { DocumentMetaSchema, keysFor, oneOf, RemoteUrl, SessionKeyInput } from './knowledge-common.ts';

/**
 * A knowledge document kept per session key (the brain, the persona prompt): what differs between
 * them. `GET /<name>` resolves it through the key's precedence; `POST /<name>` stores it, given
 * directly in `<dataField>` or read now from `<urlField>`.
 */
export interface KnowledgeDocument<T> {
  name: 'brain' | 'prompt';
  /** The body field holding the document itself (`brainData`, `prompt`). */
  dataField: string;
  /** The body field holding a URL to read it from (`brainUrl`, `promptUrl`). */
  urlField: string;
  /** What a request may send in `dataField`. */
  input: z.ZodType<T>;
  /** The document in a GET answer, under `name`. */
  output: z.ZodType;
  describe: { data: string; url: string; get: string; post: string };
  resolve(
    tenantId: string,
    keys: string[],
  ): Promise<{ key: string; value: T; meta: DocumentMeta } | undefined>;
  put(tenantId: string, key: string, value: T, src: KnowledgeSource): Promise<DocumentMeta>;
  fetchRemote(url: string): Promise<T>;
}

const tags = ['chatbot'];

/** The two routes of one knowledge document (mounted under `/api/v1/chatbot`). */
export function documentRoutes<T>(doc: KnowledgeDocument<T>) {
  const r = router();
  const Body = z
    .object({
      sessionKey: SessionKeyInput.default('global'),
      [doc.dataField]: doc.input.optional().openapi({ description: doc.describe.data }),
      [doc.urlField]: RemoteUrl.optional().openapi({ description: doc.describe.url }),
    })
    .superRefine(oneOf(doc.dataField, doc.urlField));
  const urlOf = (url: string | undefined) => (url ? { [doc.urlField]: url } : {});

  r.openapi(
    createRoute({
      method: 'get',
      path: `/${doc.name}`,
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: doc.describe.get,
      request: { query: z.object({ sessionKey: SessionKeyInput.default('global') }) },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            resolvedFrom: z.string().openapi({ description: `the key the ${doc.name} is stored under` }),
            [doc.name]: doc.output,
            [doc.urlField]: z.string().optional(),
            ...DocumentMetaSchema,
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { sessionKey } = c.req.valid('query');
      const hit = await doc.resolve(tenant, await keysFor(tenant, sessionKey));
      if (!hit) throw new NotFoundError(`no ${doc.name} for ${sessionKey} and no global ${doc.name}`);
      const { url, key: _k, ...meta } = hit.meta;
      const answer = {
        success: true as const,
        sessionKey,
        resolvedFrom: hit.key,
        [doc.name]: hit.value,
        ...urlOf(url),
        ...meta,
      };
      return c.json(answer, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: `/${doc.name}`,
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: doc.describe.post,
      request: { body: { content: { 'application/json': { schema: Body } } } },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            [doc.urlField]: z.string().optional(),
            ...DocumentMetaSchema,
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const body = c.req.valid('json') as { sessionKey: string } & Record<string, unknown>;
      const remote = body[doc.urlField] as string | undefined;
      const value = remote === undefined ? (body[doc.dataField] as T) : await doc.fetchRemote(remote);
      const { key, url, ...meta } = await doc.put(tenant, body.sessionKey, value, { url: remote });
      return c.json({ success: true as const, sessionKey: key, ...urlOf(url), ...meta }, 200);
    },
  );

  return r;
}
