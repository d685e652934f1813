import { z } from 'zod';
import { isPhoneDigits } from '../phone/number.ts';

/** What we ask the network to deliver: our own shape, converted to the network's at the driver. */
export const OutboundKind = z.enum([
  'text',
  'image',
  'pdf',
  'document',
  'audio',
  'video',
  'voice',
  'buttons',
  'location',
  'contact',
  'poll',
  'sticker',
  'list',
]);
export type OutboundKind = z.infer<typeof OutboundKind>;

/** The outbound kinds that carry a file (a URL or an upload); the others carry their content inline. */
const mediaKinds: OutboundKind[] = ['image', 'pdf', 'document', 'audio', 'video', 'voice', 'sticker'];
export const OUTBOUND_MEDIA_KINDS: ReadonlySet<string> = new Set(mediaKinds);

/** A place: what a `location` message carries, either way. */
export const Location = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  name: z.string().trim().min(1).max(256).optional(),
  address: z.string().trim().min(1).max(512).optional(),
});
export type Location = z.infer<typeof Location>;

/** The most numbers one contact card carries. */
export const CONTACT_PHONES_MAX = 10;

/** One contact card of a `contact` message; sent as a vCard (shared/messages/vcard.ts). */
export const ContactCard = z.object({
  name: z.string().trim().min(1).max(256),
  /** Digits with country code, each a WhatsApp number the card links to. */
  phones: z
    .array(z.string().refine((d) => isPhoneDigits(d), 'digits with country code'))
    .min(1)
    .max(CONTACT_PHONES_MAX),
  email: z.string().trim().email().max(256).optional(),
  org: z.string().trim().min(1).max(256).optional(),
});
export type ContactCard = z.infer<typeof ContactCard>;
/** The most cards one `contact` message carries. */
export const CONTACTS_MAX = 10;

/** The network takes 2 to 12 options per poll, each named once. */
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 12;
export const Poll = z.object({
  question: z.string().trim().min(1).max(255),
  options: z
    .array(z.string().trim().min(1).max(100))
    .min(POLL_OPTIONS_MIN)
    .max(POLL_OPTIONS_MAX)
    .refine((o) => new Set(o).size === o.length, 'options must differ from each other'),
  /** Several options may be chosen (default: one). */
  multiple: z.boolean().optional(),
});
export type Poll = z.infer<typeof Poll>;

/** The network's limits on a list message (Meta's too): 10 sections, 10 rows in all. */
export const LIST_ROWS_MAX = 10;
export const ListRow = z.object({
  id: z.string().trim().min(1).max(200),
  title: z.string().trim().min(1).max(24),
  description: z.string().trim().min(1).max(72).optional(),
});
export const List = z
  .object({
    body: z.string().trim().min(1).max(1024),
    /** The label of the button that opens the list. */
    button: z.string().trim().min(1).max(20),
    sections: z
      .array(
        z.object({
          /** Required when the list has more than one section (Meta's rule too). */
          title: z.string().trim().min(1).max(24).optional(),
          rows: z.array(ListRow).min(1).max(LIST_ROWS_MAX),
        }),
      )
      .min(1)
      .max(LIST_ROWS_MAX),
  })
  .superRefine((l, ctx) => {
    if (l.sections.length > 1) {
      for (const [i, s] of l.sections.entries()) {
        if (!s.title)
          ctx.addIssue({
            code: 'custom',
            path: ['sections', i, 'title'],
            message: 'a title is required for each section when there are several',
          });
      }
    }
    const ids = l.sections.flatMap((s) => s.rows.map((r) => r.id));
    if (ids.length > LIST_ROWS_MAX)
      ctx.addIssue({ code: 'custom', path: ['sections'], message: `at most ${LIST_ROWS_MAX} rows in all` });
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['sections'], message: 'row ids must differ from each other' });
  });
export type List = z.infer<typeof List>;

/** A customer's choice from a list message: the row's id and what it showed. */
export const ListReply = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
});
export type ListReply = z.infer<typeof ListReply>;

export const OutboundContent = z.object({
  kind: OutboundKind,
  text: z.string().optional(),
  caption: z.string().optional(),
  fileName: z.string().optional(),
  mimetype: z.string().optional(),
  /** Public or presigned URL the host fetches (with the private-address guard). */
  mediaUrl: z.string().optional(),
  /** Voice notes: seconds. */
  durationSeconds: z.number().optional(),
  buttons: z.array(z.object({ id: z.string(), title: z.string() })).optional(),
  location: Location.optional(),
  contacts: z.array(ContactCard).min(1).max(CONTACTS_MAX).optional(),
  poll: Poll.optional(),
  list: List.optional(),
  /** Reply context: the id of the quoted message. */
  quotedId: z.string().optional(),
  /** A voice note to speak rather than fetch (the chatbot's voice replies): the host synthesises it. */
  speech: z.object({ text: z.string().min(1).max(2000), lang: z.string().max(20).optional() }).optional(),
  /** S3 key of an upload-send file: the host reads it by key and deletes it 5 s after dispatch. */

  uploadKey: z.string().optional(),
  /** S3 key of the sender's own file in the media bucket (`mediaUrl` presigned for it): read by key, kept. */
  storedKey: z.string().optional(),
});
export type OutboundContent = z.infer<typeof OutboundContent>;

/** A voice note's length when the sender does not give one. */
export const VOICE_DEFAULT_SECONDS = 5;

/** A document's file name: the one given, else `document.pdf` for a PDF and `document` for the rest. */
export const documentFileName = (kind: 'pdf' | 'document', given?: string) =>
  given ?? (kind === 'pdf' ? 'document.pdf' : 'document');

export const InboundKind = z.enum([
  'text',
  'image',
  'audio',
  'voice',
  'video',
  'document',
  'sticker',
  'location',
  'contact',
  'reaction',
  'poll',
  'unknown',
  /**
   * A placeholder: the network delivered a message the device could not decrypt, and the driver
   * asked the sender's phone to send it again. It carries the id, chat, sender and time only; the
   * real message with the same id replaces it when it comes (docs/events.md, "Undecryptable messages").
   */
  'decrypt_failed',
]);
export type InboundKind = z.infer<typeof InboundKind>;

/**
 * A location as the network carried it (received, or sent as the network has it): not held to the
 * send limits of `Location`, since what came is kept.
 */
export const CarriedLocation = z.object({
  latitude: z.number(),
  longitude: z.number(),
  name: z.string().optional(),
  address: z.string().optional(),
});
/** A poll as the network carried it: its question, its options' texts, one choice or several. */
export const CarriedPoll = z.object({
  question: z.string(),
  options: z.array(z.string()),
  multiple: z.boolean(),
});

/**
 * The text a location or contact message is stored and listed with (a poll's is its question),
 * whichever network it came from: `<latitude>,<longitude>`, the names.
 */
export const locationSummary = (l: { latitude: number; longitude: number }) => `${l.latitude},${l.longitude}`;
export const contactsSummary = (cards: Array<{ name: string }>) => cards.map((c) => c.name).join(', ');

/** An inbound message, normalised once by the connection host. Phone numbers are digits. */
export const InboundMessage = z.object({
  id: z.string(),
  /** The chat: the sender's digits, `<id>@g.us` for a group, `<lid>@lid` when only a LID is known. */
  chatId: z.string(),
  /** Sender digits when known; `null` when only a LID is known. */
  senderPhone: z.string().nullable(),
  senderLid: z.string().optional(),
  senderName: z.string().optional(),
  groupId: z.string().optional(),
  kind: InboundKind,
  text: z.string().optional(),
  caption: z.string().optional(),
  fileName: z.string().optional(),
  mimetype: z.string().optional(),
  /** S3 key of the media the host stored, if any. */
  mediaKey: z.string().optional(),
  /**
   * A location, contact or poll as data (its `text` is the summary: `<latitude>,<longitude>`, the
   * names, the question). Not validated against the send limits: what the network carried is kept.
   */
  location: CarriedLocation.optional(),
  contacts: z
    .array(
      z.object({
        name: z.string(),
        phones: z.array(z.string()),
        email: z.string().optional(),
        org: z.string().optional(),
      }),
    )
    .optional(),
  poll: CarriedPoll.optional(),
  /** The customer chose a row of a list message (`kind` text, `text` the row's title). */
  listReply: ListReply.optional(),
  timestampMs: z.number(),
  /**
   * Received while the link was down: the network's offline queue, replayed when it came back. No
   * automatic reply goes to a backlog message (docs/events.md, "Backlog").
   */
  backlog: z.boolean().optional(),
  /**
   * Sent by the phone at linking (history sync, `syncHistory`): stored only, never answered and
   * never sent as `message.inbound` (docs/sessions.md, "History sync").
   */
  history: z.boolean().optional(),
  /**
   * The message carried media the host could not fetch (expired and not uploaded again, over the
   * size limit, or not in time): why. The message is delivered on time without its file.
   */
  mediaMissing: z.string().optional(),
});
export type InboundMessage = z.infer<typeof InboundMessage>;

/** The kind of an undecryptable message's placeholder: replaced by the real message of its id. */
export const DECRYPT_FAILED = InboundKind.enum.decrypt_failed;

/** Whether a message (inbound, stored) is an undecryptable message's placeholder. */
export const isDecryptFailed = (m: { kind: string }) => m.kind === DECRYPT_FAILED;

/**
 * A message the account itself sent from another device (the business's phone), seen by the linked
 * session: the network echoes it to every device of the account. One-to-one chats only. Our own sends
 * come back the same way; the events consumer tells them apart by their id (already stored).
 */
export const OwnMessage = z.object({
  id: z.string(),
  /** The customer's chat: digits, or `<lid>@lid` when only a LID is known. */
  chatId: z.string(),
  kind: InboundKind,
  text: z.string().optional(),
  caption: z.string().optional(),
  timestampMs: z.number(),
});
export type OwnMessage = z.infer<typeof OwnMessage>;

/**
 * A contact's vote on a poll the account sent, decrypted by the driver: the options (their texts)
 * the voter now chooses. A later vote of the same voter replaces the earlier; none withdraws it.
 */
export const PollVote = z.object({
  /** The poll's message id. */
  pollId: z.string(),
  /** The poll's chat: digits, `<id>@g.us`, `<lid>@lid`. */
  chatId: z.string(),
  /** The voter's digits; null when only a LID is known. */
  voterPhone: z.string().nullable(),
  voterLid: z.string().optional(),
  options: z.array(z.string()),
  timestampMs: z.number(),
});
export type PollVote = z.infer<typeof PollVote>;
