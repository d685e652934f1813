import { NotFoundError, ValidationError } from '#shared/http/errors';
import type { OutboundContent } from '#shared/messages/content';
import { getTemplate } from '../templates/repository.ts';
import { fillPlaceholders, type StoredTemplate } from '../templates/template.ts';
import { buildContent } from './content-builder.ts';

/**
 * Sending with a template is the messages' job: templates/ stores them and knows their placeholders,
 * and this turns one into the content a send carries, so templates/ needs nothing from messages/.
 */

/** What a template turns into: plain text, media with the text as caption, or text with buttons. */
export function renderTemplate(
  t: StoredTemplate,
  params: ReadonlyArray<string | number>,
  overrides: { headerUrl?: string; paramsField?: string } = {},
): OutboundContent {
  const field = overrides.paramsField ?? 'params';
  const filled = fillPlaceholders(t.body, params);
  if ('missing' in filled) {
    throw new ValidationError(
      `${field}: template "${t.name}" uses {{${filled.missing}}} but ${field}[${filled.missing - 1}] is missing (${params.length} given)`,
      field,
    );
  }
  const mediaUrl = overrides.headerUrl ?? t.header?.url;
  if (t.buttons?.length) {
    return buildContent('buttons', {
      text: filled.text,
      buttons: t.buttons,
      mediaUrl: t.header ? mediaUrl : undefined,
    });
  }
  if (t.header && mediaUrl) {
    return buildContent(t.header.type, { mediaUrl, caption: filled.text, fileName: t.header.fileName });
  }
  return buildContent('text', { text: filled.text });
}

/** The tenant's template by name, rendered with `params`; 404 TEMPLATE_NOT_FOUND when there is none. */
export async function renderStoredTemplate(
  tenantId: string,
  name: string,
  params: ReadonlyArray<string | number>,
  overrides: { headerUrl?: string; paramsField?: string } = {},
): Promise<OutboundContent> {
  const t = await getTemplate(tenantId, name);
  if (!t) throw new NotFoundError(`template "${name}" not found`, 'TEMPLATE_NOT_FOUND');
  return renderTemplate(t, params, overrides);
}
