import { z } from 'zod';

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
]);
export type OutboundKind = z.infer<typeof OutboundKind>;

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
  /** Reply context: the id of the quoted message. */
  quotedId: z.string().optional(),
  /** A voice note to speak rather than fetch (the chatbot's voice replies): the host synthesises it. */
  speech: z.object({ text: z.string().min(1).max(2000), lang: z.string().max(20).optional() }).optional(),
  /** S3 key of an upload-send file: the host deletes it 5 s after dispatch. */

  uploadKey: z.string().optional(),
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
  'unknown',
]);
export type InboundKind = z.infer<typeof InboundKind>;

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
  timestampMs: z.number(),
  /**
   * Received while the link was down: the network's offline queue, replayed when it came back. No
   * automatic reply goes to a backlog message (docs/events.md, "Backlog").
   */
  backlog: z.boolean().optional(),
});
export type InboundMessage = z.infer<typeof InboundMessage>;

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
