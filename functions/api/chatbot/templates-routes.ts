import { router } from '#shared/http/context';
import { PROFILE_TEMPLATES } from './profiles/index.ts';
import { profileTemplatesRoute } from './templates-routes.schema.ts';

/** `/templates/{profile}`: a ready-made brain, prompt and intents file; no credentials needed. */
export function templatesRoutes() {
  const r = router();
  r.openapi(profileTemplatesRoute, (c) => {
    const { profile } = c.req.valid('param');
    return c.json({ success: true as const, profile, ...PROFILE_TEMPLATES[profile] }, 200);
  });
  return r;
}
