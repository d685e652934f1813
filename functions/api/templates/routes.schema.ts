import { z } from '@hono/zod-openapi';
import { ok, routesTagged } from '#shared/http/schemas';
import { Button, TemplateHeader, TemplateInput } from './template.ts';

/**
 * The definitions of the template routes (routes.ts): their schemas, which also make /openapi.json.
 */

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

const route = routesTagged('templates');

export const listTemplatesRoute = route({
  method: 'get',
  path: '/',
  summary: 'List templates',
  responses: { 200: ok({ templates: z.array(TemplateSchema) }) },
});

export const saveTemplateRoute = route({
  method: 'post',
  path: '/',
  summary: 'Create a template (a template with the same name is replaced)',
  request: { body: { content: { 'application/json': { schema: TemplateInput } } } },
  responses: { 201: ok({ template: TemplateSchema }) },
});

export const templateRoute = route({
  method: 'get',
  path: '/{name}',
  summary: 'One template',
  request: { params: NameParam },
  responses: { 200: ok({ template: TemplateSchema }) },
});

export const deleteTemplateRoute = route({
  method: 'delete',
  path: '/{name}',
  summary: 'Delete a template',
  request: { params: NameParam },
  responses: { 200: ok({ message: z.string() }) },
});
