import {
  type ContactCard,
  contactsSummary,
  documentFileName,
  type List,
  type Location,
  locationSummary,
  type OutboundContent,
  type OutboundKind,
  type Poll,
  VOICE_DEFAULT_SECONDS,
} from '#shared/messages/content';
import { fileNameFromUrl, mimetypeOfFileName } from './media-names.ts';

/** What a send says about its content, whichever API it came through (native, Cloud, upload, template). */
export interface ContentFields {
  text?: string;
  caption?: string;
  mediaUrl?: string;
  fileName?: string;
  /** Known from the bytes (uploads); a document without one gets its file name's. */
  mimetype?: string;
  durationSeconds?: number;
  buttons?: OutboundContent['buttons'];
  /** An upload's S3 key, which the host deletes after sending. */
  uploadKey?: string;
  location?: Location;
  contacts?: ContactCard[];
  poll?: Poll;
  list?: List;
}

/**
 * The text a location, contact or poll is stored and listed with, as the inbound side writes it
 * (the summaries of shared/messages/content.ts): `<latitude>,<longitude>`, the names, the question.
 */
function summaryOf(kind: 'location' | 'contact' | 'poll', f: ContentFields): string {
  if (kind === 'location') return f.location ? locationSummary(f.location) : '';
  if (kind === 'contact') return contactsSummary(f.contacts ?? []);
  return f.poll?.question ?? '';
}

/**
 * The content of one message, with the defaults every send path shares: a voice note lasts
 * `VOICE_DEFAULT_SECONDS` unless told; a PDF goes as a `document` of `application/pdf`; a document's
 * file name is the one given, else the URL's, else `document.pdf` / `document`. Only the fields the
 * kind carries are kept (an audio has no caption).
 */
export function buildContent(kind: OutboundKind, f: ContentFields): OutboundContent {
  const media = {
    mediaUrl: f.mediaUrl,
    ...(f.mimetype ? { mimetype: f.mimetype } : {}),
    ...(f.uploadKey ? { uploadKey: f.uploadKey } : {}),
  };
  switch (kind) {
    case 'text':
      return { kind, text: f.text };
    case 'buttons':
      return { kind, text: f.text, buttons: f.buttons, mediaUrl: f.mediaUrl };
    case 'image':
    case 'video':
      return { kind, ...media, caption: f.caption };
    case 'audio':
      return { kind, ...media };
    case 'sticker':
      // Any image: the host converts what is not WebP already (connection-host/sticker.ts).
      return { kind, ...media };
    case 'list':
      return { kind, text: f.list?.body, list: f.list };
    case 'voice':
      return { kind, ...media, durationSeconds: f.durationSeconds ?? VOICE_DEFAULT_SECONDS };
    case 'location':
      return { kind, text: summaryOf(kind, f), location: f.location };
    case 'contact':
      return { kind, text: summaryOf(kind, f), contacts: f.contacts };
    case 'poll':
      return { kind, text: summaryOf(kind, f), poll: f.poll };
    case 'pdf':
    case 'document': {
      const fileName = documentFileName(kind, f.fileName ?? fileNameFromUrl(f.mediaUrl ?? ''));
      const mimetype = kind === 'pdf' ? 'application/pdf' : (f.mimetype ?? mimetypeOfFileName(fileName));
      return { kind: 'document', ...media, caption: f.caption, fileName, mimetype };
    }
  }
}
