import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { requireAuth } from '../auth/middleware.ts';
import { deleteTemplate, getTemplate, listTemplates, putTemplate } from './repository.ts';
import {
  deleteTemplateRoute,
  listTemplatesRoute,
  saveTemplateRoute,
  templateRoute,
} from './routes.schema.ts';

/** Stored message templates of the caller's tenant. */
export function templateRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(listTemplatesRoute, async (c) =>
    c.json({ success: true as const, templates: await listTemplates(c.get('auth').tenant) }, 200),
  );

  r.openapi(saveTemplateRoute, async (c) => {
    const template = await putTemplate(c.get('auth').tenant, c.req.valid('json'));
    return c.json({ success: true as const, template }, 201);
  });

  r.openapi(templateRoute, async (c) => {
    const { name } = c.req.valid('param');
    const template = await getTemplate(c.get('auth').tenant, name);
    if (!template) throw new NotFoundError(`template "${name}" not found`, 'TEMPLATE_NOT_FOUND');
    return c.json({ success: true as const, template }, 200);
  });

  r.openapi(deleteTemplateRoute, async (c) => {
    const { name } = c.req.valid('param');
    if (!(await deleteTemplate(c.get('auth').tenant, name))) {
      throw new NotFoundError(`template "${name}" not found`, 'TEMPLATE_NOT_FOUND');
    }
    return c.json({ success: true as const, message: `template "${name}" deleted` }, 200);
  });
  return r;
}
