import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { deleteTemplate, getTemplate, listTemplates, putTemplate } from './repository.ts';
import { Button, TemplateHeader, TemplateInput } from './template.ts';

const TemplateSchema = z
  .object({
    name: z.string(),
    body: z.string(),
    language: z.string(),
    header: TemplateHeader.optional(),
    buttons: z.array(Button).optional(),
    placeholders: z.array(z.number().int()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Template');

const NameParam = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'name', in: 'path' } }),
});

const tags = ['templates'];

/** Stored message templates of the caller's tenant. */
export function templateRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      security: bearer,
      summary: 'List templates',
      responses: {
        200: json(z.object({ success: z.literal(true), templates: z.array(TemplateSchema) })),
        ...errorResponses,
      },
    }),
    async (c) =>
      c.json({ success: true as const, templates: await listTemplates(c.get('auth').tenant) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      security: bearer,
      summary: 'Create a template (a template with the same name is replaced)',
      request: { body: { content: { 'application/json': { schema: TemplateInput } } } },
      responses: {
        201: json(z.object({ success: z.literal(true), template: TemplateSchema })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const template = await putTemplate(c.get('auth').tenant, c.req.valid('json'));
      return c.json({ success: true as const, template }, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{name}',
      tags,
      security: bearer,
      summary: 'One template',
      request: { params: NameParam },
      responses: {
        200: json(z.object({ success: z.literal(true), template: TemplateSchema })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const template = await getTemplate(c.get('auth').tenant, name);
      if (!template) throw new NotFoundError(`template "${name}" not found`, 'TEMPLATE_NOT_FOUND');
      return c.json({ success: true as const, template }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/{name}',
      tags,
      security: bearer,
      summary: 'Delete a template',
      request: { params: NameParam },
      responses: {
        200: json(z.object({ success: z.literal(true), message: z.string() })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      if (!(await deleteTemplate(c.get('auth').tenant, name))) {
        throw new NotFoundError(`template "${name}" not found`, 'TEMPLATE_NOT_FOUND');
      }
      return c.json({ success: true as const, message: `template "${name}" deleted` }, 200);
    },
  );
  return r;
}
