import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { ServiceError, ValidationError } from '#shared/http/errors';
import { MEDIA_MAX_BYTES, MiB } from '#shared/media/limits';
import { objectKey } from '#shared/store/object-keys';

export type UploadType = 'image' | 'pdf' | 'document' | 'audio' | 'video' | 'voice';

/**
 * What the network accepts per kind (documented in docs/messaging.md). Everything is also bounded by
 * the multipart limit of the API (MEDIA_MAX_BYTES).
 */
export const NETWORK_LIMITS: Record<UploadType, number> = {
  image: 16 * MiB,
  audio: 16 * MiB,
  voice: 16 * MiB,
  video: MEDIA_MAX_BYTES,
  pdf: MEDIA_MAX_BYTES,
  document: MEDIA_MAX_BYTES,
};

/** How long the host has to fetch an uploaded file. */
export const PRESIGN_SECONDS = 600;

export interface DetectedFile {
  type: UploadType;
  mimetype: string;
}

/** The kind to send a file as: from its magic bytes, else its declared content type, else a document. */
export async function detectFile(bytes: Uint8Array, declaredType: string | undefined): Promise<DetectedFile> {
  const { fileTypeFromBuffer } = await import('file-type'); // on first use (cold start)
  const sniffed = await fileTypeFromBuffer(bytes);
  const declared = declaredType && declaredType !== 'application/octet-stream' ? declaredType : undefined;
  const mimetype = sniffed?.mime ?? declared ?? 'application/octet-stream';
  return { type: kindOfMimetype(mimetype), mimetype };
}

/** The kind to send a file of this MIME type as. */
export function kindOfMimetype(mime: string): UploadType {
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

export function checkNetworkLimit(type: UploadType, size: number): void {
  const max = NETWORK_LIMITS[type];
  if (size > max) {
    throw new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `file: ${type} files may be at most ${max / MiB} MiB (got ${size} bytes)`,
    );
  }
  if (size === 0) throw new ValidationError('file: the file is empty', 'file');
}

export const uploadKeyOf = (tenantId: string, messageId: string) => objectKey('uploads', tenantId, messageId);

/** Bytes of a file's start that identify its type (what file-type reads). */
const SNIFF_BYTES = 4100;
/**
 * Parts of a multipart upload to S3: the smallest S3 takes, and well under the body limit of local
 * mode's S3 (11 MiB). With one part in flight, an upload holds at most about two parts in memory.
 */
const PART_BYTES = 5 * MiB;

export interface StoredFile extends DetectedFile {
  size: number;
  /** Hex SHA-256 of the bytes, taken as they streamed. */
  sha256: string;
}

/** An upload under way: the stream its bytes go into, the upload's end, and how to abandon it. */
interface Started {
  pass: PassThrough;
  done: Promise<unknown>;
  abort: () => Promise<void>;
  file: DetectedFile;
}

/**
 * A sink that streams a file to `uploads/<key>` as it arrives (a lifecycle rule expires that prefix
 * after a day, as a backstop for the host's deletion 5 s after sending). The first bytes decide the
 * type (`decide` may refuse it); the kind's network limit is enforced while the bytes flow, and the
 * upload is abandoned the moment it is passed. `result` settles when the object is stored.
 */
export function uploadSink(
  key: string,
  declaredType: string | undefined,
  decide: (detected: DetectedFile) => UploadType,
) {
  const Bucket = names.mediaBucket();
  let head: Buffer[] = [];
  let size = 0;
  const digest = createHash('sha256');
  let started: Started | undefined;

  const start = async () => {
    const bytes = Buffer.concat(head);
    head = [];
    const detected = await detectFile(bytes, declaredType);
    const type = decide(detected);
    const file = { type, mimetype: type === 'pdf' ? 'application/pdf' : detected.mimetype };
    checkNetworkLimit(type, size);
    const { Upload } = await import('@aws-sdk/lib-storage'); // on first use (cold start)
    const pass = new PassThrough();
    const upload = new Upload({
      client: s3Client(),
      params: { Bucket, Key: key, Body: pass, ContentType: file.mimetype },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    const done = upload.done();
    done.catch(() => {}); // awaited in end(); a failure before then ends the writes below
    const s: Started = { pass, done, abort: () => upload.abort(), file };
    started = s;
    await push(s, bytes);
    return s;
  };

  const push = async (s: Started, bytes: Buffer) => {
    if (!s.pass.write(bytes)) await Promise.race([once(s.pass, 'drain'), s.done]);
  };

  return {
    async write(chunk: Uint8Array) {
      size += chunk.byteLength;
      digest.update(chunk);
      if (!started) {
        head.push(Buffer.from(chunk));
        if (size >= SNIFF_BYTES) await start();
        return;
      }
      const limit = NETWORK_LIMITS[started.file.type];
      if (size > limit) checkNetworkLimit(started.file.type, size);
      await push(started, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    },
    /** The whole file has arrived: waits until it is stored. */
    async end(): Promise<StoredFile> {
      let s = started;
      if (!s) {
        if (size === 0) checkNetworkLimit('document', 0);
        s = await start();
      }
      s.pass.end();
      await s.done;
      return { ...s.file, size, sha256: digest.digest('hex') };
    },
    /** Gives up: an upload under way is aborted, a stored object deleted. */
    async discard() {
      if (!started) return;
      started.pass.destroy();
      await started.abort().catch(() => undefined);
      await deleteUpload(key).catch(() => undefined);
    },
  };
}

/** A presigned GET URL of a stored upload (the host reads uploads by key; the URL is for others). */
export async function uploadUrl(key: string): Promise<string> {
  return getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: names.mediaBucket(), Key: key }), {
    expiresIn: PRESIGN_SECONDS,
  });
}

export async function deleteUpload(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: names.mediaBucket(), Key: key }));
}
