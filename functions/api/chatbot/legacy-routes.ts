import {
  isProfileName,
  putBrain,
  putPrompt,
  resolveBrain,
  setTenantProfile,
} from '#shared/chatbot/knowledge';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { requireAuth } from '../auth/middleware.ts';
import { saveIntents } from './intents-routes.ts';
import { fetchRemotePrompt, keysFor } from './knowledge-common.ts';
import { brainRoute, saveBrainRoute, saveIntentsRoute, savePromptRoute } from './legacy-routes.schema.ts';

/**
 * The older chatbot paths under `/api/chatbot` (interface spec, "Older chatbot paths"), on the same
 * store as `/api/v1/chatbot`. `tenant` names a profile folder: it sets the tenant's profile and
 * takes part in the brain lookup.
 */
export function legacyChatbotRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(brainRoute, async (c) => {
    const auth = c.get('auth');
    const { sessionId, tenant } = c.req.valid('query');
    const profile = isProfileName(tenant) ? tenant : undefined;
    const key = sessionId ?? profile ?? GLOBAL_KEY;
    const hit = await resolveBrain(auth.tenant, await keysFor(auth.tenant, key, profile));
    if (!hit) throw new NotFoundError(`no brain for ${key} and no global brain`);
    return c.json({ success: true as const, sessionId: key, resolvedFrom: hit.key, brain: hit.brain }, 200);
  });

  r.openapi(saveBrainRoute, async (c) => {
    const auth = c.get('auth');
    const { sessionId, tenant, brain } = c.req.valid('json');
    const saved = await putBrain(auth.tenant, sessionId, brain);
    const profile = isProfileName(tenant) ? tenant : undefined;
    if (profile) await setTenantProfile(auth.tenant, profile);
    return c.json(
      {
        success: true as const,
        sessionId,
        ...(profile ? { profile } : {}),
        version: saved.version,
        updatedAt: saved.updatedAt,
      },
      200,
    );
  });

  r.openapi(savePromptRoute, async (c) => {
    const auth = c.get('auth');
    const body = c.req.valid('json');
    const key = body.sessionId ?? body.sessionKey ?? GLOBAL_KEY;
    const prompt = body.prompt ?? (await fetchRemotePrompt(body.promptUrl ?? ''));
    const saved = await putPrompt(auth.tenant, key, prompt, { url: body.promptUrl });
    return c.json(
      { success: true as const, sessionId: key, version: saved.version, updatedAt: saved.updatedAt },
      200,
    );
  });

  r.openapi(saveIntentsRoute, async (c) =>
    c.json(await saveIntents(c.get('auth').tenant, c.req.valid('json')), 200),
  );

  return r;
}
