import { z } from '@hono/zod-openapi';
import {
  CONTACT_PHONES_MAX,
  CONTACTS_MAX,
  ContactCard,
  List,
  Location,
  OUTBOUND_MEDIA_KINDS,
  type OutboundContent,
  OutboundKind,
  Poll,
  VOICE_DEFAULT_SECONDS,
} from '#shared/messages/content';
import { phoneNumberInput } from '#shared/phone/schema';
import { Button, HttpUrl } from '../templates/template.ts';
import { buildContent } from './content-builder.ts';
import { Recipient } from './recipient.ts';

/** Every native send type: what the network carries, plus stored templates (resolved before sending). */
export const SendType = z.enum([...OutboundKind.options, 'template']);
export type SendType = z.infer<typeof SendType>;

export const TemplateParams = z.array(z.union([z.string().max(1024), z.number()])).max(100);

/** A contact card as a request gives it: numbers as people write them (→ digits with country code). */
const ContactCardInput = ContactCard.extend({
  phones: z.array(phoneNumberInput()).min(1).max(CONTACT_PHONES_MAX),
}).describe('A contact card; each number with its country code');

/** `POST /api/messages/send`: the fields of the interface specification, with their aliases. */
export const SendBody = z
  .object({
    sessionId: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .openapi({ description: 'Sender: a mobid, a mobile number or a session id' }),
    to: Recipient.openapi({ description: 'Recipient number with country code', example: '919876543210' }),
    type: SendType.default('text'),
    message: z.string().max(4096).optional().openapi({ description: 'Text content (alias of `text`)' }),
    text: z
      .string()
      .max(4096)
      .optional()
      .openapi({ description: 'Text content; for `template`, the template name' }),
    url: HttpUrl.optional().openapi({ description: 'Public http(s) URL of the media' }),
    media_url: HttpUrl.optional().openapi({ description: 'Alias of `url`' }),
    caption: z.string().max(1024).optional(),
    fileName: z.string().trim().min(1).max(255).optional(),
    duration: z
      .number()
      .positive()
      .max(3600)
      .optional()
      .openapi({ description: `Voice note seconds (default ${VOICE_DEFAULT_SECONDS})` }),
    params: TemplateParams.optional().openapi({
      description: 'Values for `{{1}}`, `{{2}}`, … of a template',
    }),
    takeover: z.boolean().optional().openapi({
      description:
        'A person of the business is writing: the bot stays out of this chat for the takeover time (docs/chatbot.md)',
    }),
    buttons: z
      .array(Button)
      .min(1)
      .max(3)
      .optional()
      .openapi({ description: 'For `buttons`: 1 to 3 reply buttons' }),
    latitude: Location.shape.latitude.optional().describe('For `location`: degrees, -90 to 90'),
    longitude: Location.shape.longitude.optional().describe('For `location`: degrees, -180 to 180'),
    name: Location.shape.name.describe("For `location`: the place's name"),
    address: Location.shape.address.describe('For `location`: its address'),
    contacts: z
      .array(ContactCardInput)
      .min(1)
      .max(CONTACTS_MAX)
      .optional()
      .describe(`For \`contact\`: 1 to ${CONTACTS_MAX} cards, each sent as a vCard`),
    poll: Poll.optional().describe(
      'For `poll`: the question and 2 to 12 distinct options; `multiple` lets a voter pick several',
    ),
    list: List.optional().describe(
      'For `list`: the text, the label of the button that opens the list, and its sections of rows (10 rows in all); the choice comes back as an inbound message with `list_reply.id`',
    ),
  })
  .superRefine((b, ctx) => {
    const text = b.message ?? b.text;
    if ((b.type === 'text' || b.type === 'buttons') && !text?.trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['message'],
        message: `message (or text) is required for type ${b.type}`,
      });
    }
    if (b.type === 'template' && !b.text?.trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: 'text must hold the template name for type template',
      });
    }
    if (b.type === 'buttons' && !b.buttons) {
      ctx.addIssue({ code: 'custom', path: ['buttons'], message: 'buttons is required for type buttons' });
    }
    if (b.type === 'location') {
      for (const f of ['latitude', 'longitude'] as const) {
        if (b[f] === undefined)
          ctx.addIssue({ code: 'custom', path: [f], message: `${f} is required for type location` });
      }
    }
    if (b.type === 'contact' && !b.contacts) {
      ctx.addIssue({ code: 'custom', path: ['contacts'], message: 'contacts is required for type contact' });
    }
    if (b.type === 'poll' && !b.poll) {
      ctx.addIssue({ code: 'custom', path: ['poll'], message: 'poll is required for type poll' });
    }
    if (b.type === 'list' && !b.list) {
      ctx.addIssue({ code: 'custom', path: ['list'], message: 'list is required for type list' });
    }
    if (OUTBOUND_MEDIA_KINDS.has(b.type) && !(b.url ?? b.media_url)) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: `url (or media_url) is required for type ${b.type}`,
      });
    }
  })
  .openapi('SendMessage');
export type SendBody = z.infer<typeof SendBody>;

/** The content of every non-template type. */
export function contentOf(b: SendBody): OutboundContent {
  if (b.type === 'template') throw new Error('templates are rendered from the store');
  return buildContent(b.type, {
    text: b.message ?? b.text,
    caption: b.caption,
    mediaUrl: b.url ?? b.media_url,
    fileName: b.fileName,
    durationSeconds: b.duration,
    buttons: b.buttons,
    location:
      b.latitude === undefined || b.longitude === undefined
        ? undefined
        : { latitude: b.latitude, longitude: b.longitude, name: b.name, address: b.address },
    contacts: b.contacts,
    poll: b.poll,
    list: b.list,
  });
}
