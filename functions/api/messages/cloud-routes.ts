import { router } from '#shared/http/context';
import { ValidationError } from '#shared/http/errors';
import { ContactCard, List, type OutboundContent } from '#shared/messages/content';
import { fromWamid, toWamid } from '#shared/messages/wamid';
import { must } from '#shared/must';
import { isPhoneDigits, writtenDigits } from '#shared/phone/number';
import { requireAuth } from '../auth/middleware.ts';
import { cloudErrors } from '../cloud/errors.ts';
import { acceptCommand } from '../commands/accept.ts';
import { cloudMediaKeyOf, cloudMediaUrl, requireCloudMedia } from '../media/cloud-media.ts';
import { requireReadySession } from '../sessions/service.ts';
import { type CloudContact, type CloudMessageBody, cloudList } from './cloud-api.ts';
import { markReadCloud } from './cloud-read.ts';
import { cloudSendRoute } from './cloud-routes.schema.ts';
import { buildContent } from './content-builder.ts';
import { idempotentJson } from './idempotency.ts';
import { renderStoredTemplate } from './render-template.ts';
import { acceptSend } from './send-service.ts';

/**
 * A field the schema's refinement (cloud-api.ts) already required, which gave the caller a 400: the
 * same 400, not a TypeError's 500, should the refinement and this code ever disagree.
 */
function present<T>(value: T, field: string, message: string): NonNullable<T> {
  if (value === undefined || value === null) throw new ValidationError(message, field);
  return value;
}

/** The body's object for its type (`image` for an image message), required as the refinement words it. */
function partOf<K extends Exclude<CloudMessageBody['type'], 'text'>>(
  b: CloudMessageBody,
  type: K,
): NonNullable<CloudMessageBody[K]> {
  return present(b[type], type, `${type} object is required for type ${type}`);
}

async function contentOf(tenant: string, b: CloudMessageBody): Promise<OutboundContent> {
  const quotedId = b.context ? fromWamid(b.context.message_id) : undefined;
  return { ...(await baseContent(tenant, b)), ...(quotedId ? { quotedId } : {}) };
}

async function baseContent(tenant: string, b: CloudMessageBody): Promise<OutboundContent> {
  switch (b.type) {
    case 'text':
      return buildContent('text', { text: b.text?.body });
    case 'image':
      return mediaContent(tenant, 'image', partOf(b, 'image'));
    case 'video':
      return mediaContent(tenant, 'video', partOf(b, 'video'));
    case 'audio': {
      const audio = partOf(b, 'audio');
      return mediaContent(tenant, audio.voice ? 'voice' : 'audio', audio);
    }
    case 'document':
      return mediaContent(tenant, 'document', partOf(b, 'document'));
    case 'sticker':
      return mediaContent(tenant, 'sticker', partOf(b, 'sticker'));
    case 'location': {
      const l = partOf(b, 'location');
      return buildContent('location', {
        location: {
          latitude: l.latitude,
          longitude: l.longitude,
          ...(l.name ? { name: l.name } : {}),
          ...(l.address ? { address: l.address } : {}),
        },
      });
    }
    case 'contacts':
      return buildContent('contact', { contacts: partOf(b, 'contacts').map(cardOf) });
    case 'interactive': {
      const i = partOf(b, 'interactive');
      if (i.type === 'list') return buildContent('list', { list: List.parse(cloudList(i)) });
      const footer = i.footer?.text ? `\n\n${i.footer.text}` : '';
      const header = i.header?.text ? `*${i.header.text}*\n\n` : '';
      return buildContent('buttons', {
        text: `${header}${i.body.text}${footer}`,
        buttons: i.action.buttons?.map((x) => x.reply),
        mediaUrl: await headerMediaUrl(tenant, i.header),
      });
    }
    case 'template': {
      const t = partOf(b, 'template');
      const body = t.components?.find((x) => x.type.toLowerCase() === 'body');
      const params = (body?.parameters ?? []).map(
        (p) => p.text ?? p.currency?.fallback_value ?? p.date_time?.fallback_value ?? '',
      );
      const headerParam = t.components?.find((x) => x.type.toLowerCase() === 'header')?.parameters?.[0];
      return renderStoredTemplate(tenant, t.name, params, {
        headerUrl: await headerMediaUrl(tenant, headerParam),
        paramsField: 'template.components.parameters',
      });
    }
    case 'reaction':
      throw new Error('reactions are not messages');
  }
}

/**
 * A header's media (interactive, or a template's header parameter) by `link`, or by `id`: then a
 * presigned URL of the tenant's upload, which the send reads by key (own-media.ts).
 */
async function headerMediaUrl(
  tenant: string,
  h: { image?: MediaPart; document?: MediaPart; video?: MediaPart } | undefined,
): Promise<string | undefined> {
  const part = h?.image ?? h?.document ?? h?.video;
  if (!part?.id || part.link) return part?.link;
  return cloudMediaUrl(tenant, (await requireCloudMedia(tenant, part.id)).id);
}

interface MediaPart {
  link?: string;
  id?: string;
  caption?: string;
  filename?: string;
}

/**
 * A media message by `link`, or by `id` of the tenant's own upload: then the host reads the stored
 * file by key (`storedKey`, kept for further sends) and its type is the one read from its bytes.
 */
async function mediaContent(
  tenant: string,
  kind: 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker',
  part: MediaPart,
): Promise<OutboundContent> {
  const fields = { caption: part.caption, fileName: part.filename };
  if (!part.id) return buildContent(kind, { ...fields, mediaUrl: part.link });
  const m = await requireCloudMedia(tenant, part.id);
  const content = buildContent(kind, {
    ...fields,
    fileName: part.filename ?? m.file_name,
    mimetype: m.mime_type,
    mediaUrl: await cloudMediaUrl(tenant, m.id),
  });
  return { ...content, storedKey: cloudMediaKeyOf(tenant, m.id) };
}

/**
 * Meta's contact card as ours: the formatted name, each phone's `wa_id` else its digits (with country
 * code, as Meta asks), the first email, the company. A card needs one number the network can link.
 */
function cardOf(c: CloudContact, i: number): ContactCard {
  const phones = [
    ...new Set(
      (c.phones ?? []).flatMap((p) => {
        const digits = writtenDigits(p.wa_id ?? p.phone ?? '');
        return isPhoneDigits(digits) ? [digits] : [];
      }),
    ),
  ];
  if (phones.length === 0)
    throw new ValidationError(
      `contacts.${i}.phones: at least one phone number with country code is required`,
      `contacts.${i}.phones`,
    );
  const email = c.emails?.find((e) => e.email)?.email;
  const card = ContactCard.safeParse({
    name: c.name.formatted_name,
    phones,
    ...(email ? { email } : {}),
    ...(c.org?.company ? { org: c.org.company } : {}),
  });
  if (!card.success) {
    const e = must(card.error.issues[0], 'an issue of a failed parse');
    const field = { email: 'emails.0.email', org: 'org.company', name: 'name.formatted_name' }[
      String(e.path[0])
    ];
    throw new ValidationError(`contacts.${i}.${field ?? e.path.join('.')}: ${e.message}`, `contacts.${i}`);
  }
  return card.data;
}

export function cloudRoutes() {
  const r = router();
  // Errors on this path, including auth and validation, use the Cloud API error shape.
  r.use('/:phoneNumberId/messages', cloudErrors);
  r.use('/:phoneNumberId/messages', requireAuth);
  r.use('/:phoneNumberId/messages', idempotentJson);

  r.openapi(cloudSendRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { phoneNumberId } = c.req.valid('param');
    const b = c.req.valid('json');
    const session = await requireReadySession(tenant, phoneNumberId);
    if (b.status === 'read') {
      await markReadCloud(
        session,
        fromWamid(present(b.message_id, 'message_id', 'message_id is required to mark read')),
        Boolean(b.typing_indicator),
      );
      return c.json({ success: true as const }, 200);
    }
    const to = present(b.to, 'to', 'to is required');
    let messageId: string;
    if (b.type === 'reaction') {
      const reaction = partOf(b, 'reaction');
      // A reaction is no message of its own: a `react` command outside the quota, recorded like every
      // session action so its result reaches `/api/commands/{id}` and the `command.result` webhook.
      ({ commandId: messageId } = await acceptCommand(session, {
        kind: 'react',
        to,
        messageId: fromWamid(reaction.message_id),
        emoji: reaction.emoji,
      }));
    } else {
      const content = await contentOf(tenant, b);
      ({ messageId } = await acceptSend({ session, to, content, requestId: c.get('requestId') }));
    }
    return c.json(
      {
        messaging_product: b.messaging_product,
        contacts: [{ input: String(((await c.req.json()) as { to?: unknown }).to ?? to), wa_id: to }],
        messages: [{ id: toWamid(messageId) }],
      },
      200,
    );
  });
  return r;
}
