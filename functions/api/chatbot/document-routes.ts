import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { documentRouteDefs, type KnowledgeDocument } from './document-routes.schema.ts';
import { keysFor } from './knowledge-common.ts';

/** The two routes of one knowledge document (mounted under `/api/v1/chatbot`; knowledge-documents.ts). */
export function documentRoutes<N extends 'brain' | 'prompt', T>(doc: KnowledgeDocument<N, T>) {
  const r = router();
  const { readRoute, saveRoute } = documentRouteDefs(doc);
  const urlOf = (url: string | undefined) => (url ? { [doc.urlField]: url } : {});

  r.openapi(readRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { sessionKey } = c.req.valid('query');
    const hit = await doc.resolve(tenant, await keysFor(tenant, sessionKey));
    if (!hit) throw new NotFoundError(`no ${doc.name} for ${sessionKey} and no global ${doc.name}`);
    const { url, key: _k, ...meta } = hit.meta;
    const answer = {
      success: true as const,
      sessionKey,
      resolvedFrom: hit.key,
      [doc.name]: hit[doc.name],
      ...urlOf(url),
      ...meta,
    };
    return c.json(answer, 200);
  });

  r.openapi(saveRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const body = c.req.valid('json') as { sessionKey: string } & Record<string, unknown>;
    const remote = body[doc.urlField] as string | undefined;
    const value = remote === undefined ? (body[doc.dataField] as T) : await doc.fetchRemote(remote);
    const { key, url, ...meta } = await doc.put(tenant, body.sessionKey, value, { url: remote });
    return c.json({ success: true as const, sessionKey: key, ...urlOf(url), ...meta }, 200);
  });

  return r;
}
