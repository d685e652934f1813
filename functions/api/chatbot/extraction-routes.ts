import { listExtractions } from '#shared/chatbot/extraction';
import { setExtractionEnabled } from '#shared/chatbot/switches';
import { router } from '#shared/http/context';
import { extractedDataRoute, extractionToggleRoute } from './extraction-routes.schema.ts';

/** `/json-extraction/toggle` and `/extracted-data` (mounted under `/api/v1/chatbot`; docs/extraction.md). */
export function extractionRoutes() {
  const r = router();

  r.openapi(extractionToggleRoute, async (c) => {
    const { sessionKey, enabled } = c.req.valid('json');
    await setExtractionEnabled(c.get('auth').tenant, sessionKey, enabled);
    const message = enabled
      ? `Extraction on for ${sessionKey}: conversations are turned into booking and lead records.`
      : `Extraction off for ${sessionKey}.`;
    return c.json({ success: true as const, message, sessionKey, enabled }, 200);
  });

  r.openapi(extractedDataRoute, async (c) => {
    const { sessionKey } = c.req.valid('query');
    const records = await listExtractions(c.get('auth').tenant, sessionKey);
    return c.json({ success: true as const, sessionKey, count: records.length, records }, 200);
  });
  return r;
}
