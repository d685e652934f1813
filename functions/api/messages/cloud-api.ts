import { z } from '@hono/zod-openapi';
import { List, ListRow } from '#shared/messages/content';
import { Button, HttpUrl } from '../templates/template.ts';
import { Recipient } from './recipient.ts';

/**
 * The Cloud-API-compatible request: the subset of the Cloud API message object this service can
 * deliver through a linked session. Unknown keys (recipient_type, biz_opaque_callback_data…) are ignored.
 */
const Link = HttpUrl.openapi({
  description: 'Public http(s) URL of the media (or give `id` instead)',
});

const MediaId = {
  id: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: 'A media id from `POST /api/messages/{phoneNumberId}/media` (or give `link`)' }),
};

const TextParameter = z.object({
  type: z.string(),
  text: z.string().max(1024).optional(),
  currency: z.object({ fallback_value: z.string() }).optional(),
  date_time: z.object({ fallback_value: z.string() }).optional(),
  image: z.object({ link: Link.optional(), ...MediaId }).optional(),
  document: z.object({ link: Link.optional(), filename: z.string().optional(), ...MediaId }).optional(),
  video: z.object({ link: Link.optional(), ...MediaId }).optional(),
});

/** Meta's contact card (`contacts[]`): the parts a vCard of ours carries are read, the rest ignored. */
const CloudContact = z.object({
  name: z.object({
    formatted_name: z.string().trim().min(1).max(256),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
  }),
  phones: z
    .array(
      z.object({
        phone: z.string().max(40).optional(),
        wa_id: z.string().max(40).optional(),
        type: z.string().optional(),
      }),
    )
    .max(10)
    .optional(),
  emails: z
    .array(z.object({ email: z.string().max(256).optional(), type: z.string().optional() }))
    .max(10)
    .optional(),
  org: z
    .object({
      company: z.string().max(256).optional(),
      department: z.string().optional(),
      title: z.string().optional(),
    })
    .optional(),
});
export type CloudContact = z.infer<typeof CloudContact>;

/** A JSON-encoded string (the Graph API's form of a structured parameter) as its value; anything else as is. */
function jsonEncoded(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** The interactive types Meta defines that this service cannot deliver through a linked device. */
const INTERACTIVE_TYPES = ['button', 'list'] as const;

export const CloudMessageBody = z
  .object({
    messaging_product: z
      .enum(['network', 'whatsapp'])
      .openapi({ description: '`network` (or `whatsapp`), echoed back' }),
    recipient_type: z.string().optional(),
    to: Recipient.optional().openapi({ description: 'The recipient (required, except to mark read)' }),
    status: z
      .literal('read')
      .optional()
      .openapi({ description: 'Mark `message_id` read instead of sending (with `typing_indicator`)' }),
    message_id: z.string().min(1).max(200).optional().openapi({ description: 'With `status: read`' }),
    typing_indicator: z
      .object({ type: z.literal('text') })
      .optional()
      .openapi({ description: 'With `status: read`: show typing until the reply or 25 s' }),
    type: z
      .enum([
        'text',
        'image',
        'document',
        'audio',
        'video',
        'sticker',
        'location',
        'contacts',
        'template',
        'interactive',
        'reaction',
      ])
      .default('text'),
    context: z.object({ message_id: z.string().min(1).max(200) }).optional(),
    text: z.object({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }).optional(),
    image: z
      .object({ link: Link.optional(), caption: z.string().max(1024).optional(), ...MediaId })
      .optional(),
    document: z
      .object({
        link: Link.optional(),
        caption: z.string().max(1024).optional(),
        filename: z.string().max(255).optional(),
        ...MediaId,
      })
      .optional(),
    audio: z.object({ link: Link.optional(), voice: z.boolean().optional(), ...MediaId }).optional(),
    video: z
      .object({ link: Link.optional(), caption: z.string().max(1024).optional(), ...MediaId })
      .optional(),
    sticker: z.object({ link: Link.optional(), ...MediaId }).optional(),
    location: z
      .object({
        latitude: z.coerce.number().min(-90).max(90),
        longitude: z.coerce.number().min(-180).max(180),
        name: z.string().trim().max(256).optional(),
        address: z.string().trim().max(512).optional(),
      })
      .optional(),
    contacts: z.preprocess(jsonEncoded, z.array(CloudContact).min(1).max(10)).optional().openapi({
      description:
        'Contact cards; also accepted as a JSON-encoded string, as the Graph API takes structured parameters (whatsapp-api-js sends them so)',
    }),
    template: z
      .object({
        name: z.string().min(1).max(100),
        language: z.object({ code: z.string().optional(), policy: z.string().optional() }).optional(),
        components: z
          .array(
            z.object({
              type: z.string(),
              sub_type: z.string().optional(),
              parameters: z.array(TextParameter).optional(),
            }),
          )
          .optional(),
      })
      .optional(),
    interactive: z
      .object({
        type: z.string(),
        header: z
          .object({
            type: z.string(),
            text: z.string().optional(),
            image: z.object({ link: Link.optional(), ...MediaId }).optional(),
            document: z
              .object({ link: Link.optional(), filename: z.string().optional(), ...MediaId })
              .optional(),
            video: z.object({ link: Link.optional(), ...MediaId }).optional(),
          })
          .optional(),
        body: z.object({ text: z.string().min(1).max(1024) }),
        footer: z.object({ text: z.string().max(60) }).optional(),
        action: z.object({
          buttons: z
            .array(z.object({ type: z.literal('reply'), reply: Button }))
            .min(1)
            .max(3)
            .optional(),
          /** A list: the label of the button that opens it, and its sections of rows. */
          button: List.shape.button.optional(),
          sections: z
            .array(
              z.object({ title: z.string().trim().min(1).max(24).optional(), rows: z.array(ListRow).min(1) }),
            )
            .min(1)
            .max(10)
            .optional(),
        }),
      })
      .optional(),
    reaction: z.object({ message_id: z.string().min(1).max(200), emoji: z.string().max(16) }).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.status === 'read') {
      if (!b.message_id)
        ctx.addIssue({
          code: 'custom',
          path: ['message_id'],
          message: 'message_id is required to mark read',
        });
      return;
    }
    if (!b.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to is required' });
      return;
    }
    const part = b[b.type];
    if (!part) {
      ctx.addIssue({
        code: 'custom',
        path: [b.type],
        message: `${b.type} object is required for type ${b.type}`,
      });
      return;
    }
    if (b.type === 'interactive' && b.interactive) interactiveIssues(b.interactive, ctx);
    const media =
      b.type === 'image' ||
      b.type === 'document' ||
      b.type === 'audio' ||
      b.type === 'video' ||
      b.type === 'sticker';
    const { link, id } = part as { link?: string; id?: string };
    if (media && Boolean(link) === Boolean(id)) {
      ctx.addIssue({
        code: 'custom',
        path: [b.type, link ? 'id' : 'link'],
        message: `${b.type}: give either link or id`,
      });
    }
  })
  .openapi('CloudMessage');
export type CloudMessageBody = z.infer<typeof CloudMessageBody>;

type Interactive = NonNullable<CloudMessageBody['interactive']>;

/** A button message needs its buttons, a list its button label and sections; other types are refused by name. */
function interactiveIssues(i: Interactive, ctx: z.RefinementCtx): void {
  const issue = (path: Array<string | number>, message: string) =>
    ctx.addIssue({ code: 'custom', path: ['interactive', ...path], message });
  if (!(INTERACTIVE_TYPES as readonly string[]).includes(i.type)) {
    issue(['type'], `interactive type ${i.type} is not supported (only button and list)`);
    return;
  }
  if (i.type === 'button' && !i.action.buttons)
    issue(['action', 'buttons'], 'buttons is required for a button message');
  if (i.type === 'list') {
    if (!i.action.button) issue(['action', 'button'], 'button is required for a list message');
    if (!i.action.sections) issue(['action', 'sections'], 'sections is required for a list message');
    if (i.header && i.header.type !== 'text')
      issue(['header', 'type'], 'a list message takes a text header only');
    if (!i.action.button || !i.action.sections) return;
    // Our list's rules (10 rows in all, distinct ids, titles when several sections), named as Meta's fields.
    const checked = List.safeParse(cloudList(i));
    for (const e of checked.success ? [] : checked.error.issues) {
      const [head, ...rest] = e.path;
      issue(
        head === 'body'
          ? ['body', 'text']
          : ['action', String(head), ...rest.map((p) => p as string | number)],
        e.message,
      );
    }
  }
}

/**
 * A Cloud list as our list: the header and footer are folded into the body (the network's list
 * has one text). Checked against our list's rules by the schema's refinement (interactiveIssues).
 */
export function cloudList(i: Interactive): z.input<typeof List> {
  const header = i.header?.text ? `*${i.header.text}*\n\n` : '';
  const footer = i.footer?.text ? `\n\n${i.footer.text}` : '';
  return {
    body: `${header}${i.body.text}${footer}`,
    button: i.action.button ?? '',
    sections: i.action.sections ?? [],
  };
}
