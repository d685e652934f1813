import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { ServiceError, ValidationError } from '#shared/http/errors';

export type UploadType = 'image' | 'pdf' | 'document' | 'audio' | 'video' | 'voice';

const MiB = 1024 * 1024;

/**
 * What the network accepts per kind (documented in docs/messaging.md). Everything is also bounded by
 * the 64 MiB multipart limit of the API.
 */
export const NETWORK_LIMITS: Record<UploadType, number> = {
  image: 16 * MiB,
  audio: 16 * MiB,
  voice: 16 * MiB,
  video: 64 * MiB,
  pdf: 64 * MiB,
  document: 64 * MiB,
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

function kindOfMimetype(mime: string): UploadType {
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

export const uploadKeyOf = (tenantId: string, messageId: string) => `uploads/${tenantId}/${messageId}`;

/**
 * Stores the file under `uploads/` (a lifecycle rule expires that prefix after a day, as a backstop
 * for the host's deletion 5 s after sending) and answers a presigned GET URL for the host.
 */
export async function storeUpload(key: string, bytes: Uint8Array, mimetype: string): Promise<string> {
  const Bucket = names.mediaBucket();
  await s3Client().send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: mimetype }));
  return getSignedUrl(s3Client(), new GetObjectCommand({ Bucket, Key: key }), { expiresIn: PRESIGN_SECONDS });
}

export async function deleteUpload(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: names.mediaBucket(), Key: key }));
}
