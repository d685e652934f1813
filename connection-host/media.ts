import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import type { OutboundContent } from '#shared/messages/content';
import { synthesise } from '#shared/speech/synthesise';
import { toVoiceNote } from '#shared/speech/voice-note';
import type { OutboundMedia } from './drivers/driver.ts';
import { STICKER_MIMETYPE, toSticker } from './sticker.ts';

/** A media URL that can never work (refused address, too large, wrong type): the message fails. */
export class MediaError extends Error {}

const MEDIA_TIMEOUT_MS = 30_000;

const EXPECTED: Partial<Record<OutboundContent['kind'], RegExp>> = {
  image: /^image\//,
  video: /^video\//,
  audio: /^audio\//,
  voice: /^audio\//,
  sticker: /^image\//,
  pdf: /^application\/(pdf|octet-stream)/,
};

/** A voice note to speak (the chatbot's voice replies): synthesised here, where espeak-ng and ffmpeg are. */
export async function speak(
  speech: NonNullable<OutboundContent['speech']>,
): Promise<OutboundMedia & { durationSeconds: number }> {
  try {
    const s = await synthesise({ text: speech.text, lang: speech.lang });
    return {
      bytes: s.bytes,
      mimetype: s.mimetype,
      durationSeconds: Math.max(1, Math.round(s.durationMs / 1000)),
    };
  } catch (err) {
    throw new MediaError(`the voice note could not be spoken: ${(err as Error).message}`);
  }
}

/** The media's bytes and declared content type: an upload from our own bucket, else the URL. */
async function mediaBytes(content: OutboundContent): Promise<{ bytes: Uint8Array; declared: string }> {
  const key = content.uploadKey ?? content.storedKey;
  if (key) return readUpload(key);
  const url = content.mediaUrl;
  if (!url) throw new MediaError('media content names no upload, stored file or URL');
  let res: Response;
  try {
    const { guardedFetch } = await import('#shared/outbound/guard');
    res = await guardedFetch(
      url,
      { method: 'GET' },
      { maxBytes: MEDIA_MAX_BYTES, timeoutMs: MEDIA_TIMEOUT_MS },
    );
  } catch (err) {
    throw new MediaError(`media could not be fetched: ${(err as Error).message}`);
  }
  if (!res.ok) throw new MediaError(`media URL answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes, declared: res.headers.get('content-type') ?? '' };
}

/**
 * A file of the media bucket, read by its key: the key was set by the API (an upload-send file, or
 * the sender's own `POST /api/media/uploads` file, checked to be under its tenant's prefix), never
 * taken from a caller, so this is no request on a user's behalf and needs no address guard; the
 * presigned URL would point at local mode's loopback S3, which the guard rightly refuses.
 */
async function readUpload(key: string): Promise<{ bytes: Uint8Array; declared: string }> {
  try {
    const res = await s3Client().send(new GetObjectCommand({ Bucket: names.mediaBucket(), Key: key }));
    if ((res.ContentLength ?? 0) > MEDIA_MAX_BYTES) throw new Error(`larger than ${MEDIA_MAX_BYTES} bytes`);
    if (!res.Body) throw new Error('S3 answered no body');
    return { bytes: await res.Body.transformToByteArray(), declared: res.ContentType ?? '' };
  } catch (err) {
    throw new MediaError(`the uploaded file could not be read: ${(err as Error).message}`);
  }
}

/** Fetches the content's media with the private-address guard, a size cap, a timeout and a type check. */
export async function fetchMedia(content: OutboundContent): Promise<OutboundMedia> {
  const { bytes, declared: header } = await mediaBytes(content);
  if (bytes.byteLength > MEDIA_MAX_BYTES) throw new MediaError(`media larger than ${MEDIA_MAX_BYTES} bytes`);
  const [mediaType = ''] = header.split(';');
  const declared = mediaType.trim().toLowerCase();
  const expected = EXPECTED[content.kind];
  if (expected && declared && !expected.test(declared) && declared !== 'application/octet-stream') {
    throw new MediaError(`media is ${declared}, not what a ${content.kind} message needs`);
  }
  const mimetype = content.mimetype ?? (declared || 'application/octet-stream');
  if (content.kind === 'voice') {
    return { bytes: await toVoiceNote(bytes), mimetype: 'audio/ogg; codecs=opus' };
  }
  if (content.kind === 'sticker') {
    try {
      return { bytes: await toSticker(bytes), mimetype: STICKER_MIMETYPE };
    } catch (err) {
      throw new MediaError(`the sticker is not an image we can read: ${(err as Error).message}`);
    }
  }
  return { bytes, mimetype };
}
