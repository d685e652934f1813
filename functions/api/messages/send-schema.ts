import { z } from '@hono/zod-openapi';
import { type OutboundContent, OutboundKind, VOICE_DEFAULT_SECONDS } from '#shared/messages/content';
import { Button, HttpUrl } from '../templates/template.ts';
import { buildContent } from './content-builder.ts';
import { Recipient } from './recipient.ts';

/** Every native send type: what the network carries, plus stored templates (resolved before sending). */
export const SendType = z.enum([...OutboundKind.options, 'template']);
export type SendType = z.infer<typeof SendType>;

const MEDIA_TYPES: ReadonlySet<SendType> = new Set(['image', 'pdf', 'document', 'audio', 'video', 'voice']);

export const TemplateParams = z.array(z.union([z.string().max(1024), z.number()])).max(100);

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
    if (MEDIA_TYPES.has(b.type) && !(b.url ?? b.media_url)) {
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
  });
}
