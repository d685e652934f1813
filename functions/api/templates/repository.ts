import { templateKey, templatesOf } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { placeholdersOf, type StoredTemplate, type TemplateInput } from './template.ts';

/** Creates the template, or replaces the one with the same name (keeping its creation time). */
export async function putTemplate(tenantId: string, input: TemplateInput): Promise<StoredTemplate> {
  const now = new Date().toISOString();
  const existing = await getTemplate(tenantId, input.name);
  const template: StoredTemplate = {
    ...input,
    placeholders: placeholdersOf(input.body),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await dataTable.put({ ...templateKey(tenantId, input.name), type: 'template', tenantId, ...template });
  return template;
}

export async function getTemplate(tenantId: string, name: string): Promise<StoredTemplate | undefined> {
  const item = await dataTable.get<StoredTemplate & Record<string, unknown>>(templateKey(tenantId, name));
  return item ? publicTemplate(item) : undefined;
}

export async function listTemplates(tenantId: string): Promise<StoredTemplate[]> {
  const items = await dataTable.query<StoredTemplate>({ ...templatesOf(tenantId), ascending: true });
  return items.map(publicTemplate);
}

/** Answers whether a template was there to delete. */
export async function deleteTemplate(tenantId: string, name: string): Promise<boolean> {
  const existing = await getTemplate(tenantId, name);
  if (!existing) return false;
  await dataTable.delete(templateKey(tenantId, name));
  return true;
}

function publicTemplate(t: StoredTemplate): StoredTemplate {
  return {
    name: t.name,
    body: t.body,
    language: t.language,
    header: t.header,
    buttons: t.buttons,
    placeholders: t.placeholders ?? placeholdersOf(t.body),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
