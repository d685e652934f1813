import { randomInt } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { NotFoundError } from '#shared/http/errors';
import { must } from '#shared/must';
import { objectKey } from '#shared/store/object-keys';
import { PRESIGN_SECONDS } from './upload.ts';

/**
 * Media uploaded through the Cloud API's `POST /{phoneNumberId}/media`: the bytes at
 * `cloud-media/<tenant>/<id>` and what `GET /{mediaId}` answers about them beside it in
 * `<id>.json` (the digest is known only once the bytes are stored, so it cannot ride on the object).
 * The record is written last and deleted first: an id resolves only while its bytes exist. The
 * tenant is part of every key, so another tenant's id is simply not found. A lifecycle rule expires
 * the prefix after 30 days, as Meta keeps uploaded media (shared/aws/resources.ts).
 */
export interface CloudMedia {
  id: string;
  mime_type: string;
  sha256: string;
  file_size: number;
  /** The part's file name, a document's name when a send by id gives none. */
  file_name?: string;
}

/** Digits as Meta's media ids are (clients store them as strings); 15 of them, random. */
export const MEDIA_ID = /^\d{1,30}$/;
export const newMediaId = () => `${randomInt(100_000, 999_999)}${String(randomInt(0, 1e9)).padStart(9, '0')}`;

export const cloudMediaKeyOf = (tenantId: string, id: string) => objectKey('cloudMedia', tenantId, id);
const recordKeyOf = (tenantId: string, id: string) => `${cloudMediaKeyOf(tenantId, id)}.json`;

export async function saveCloudMedia(tenantId: string, media: CloudMedia): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: names.mediaBucket(),
      Key: recordKeyOf(tenantId, media.id),
      Body: JSON.stringify(media),
      ContentType: 'application/json',
    }),
  );
}

/** The tenant's media of this id; 404 for an unknown, deleted, expired or another tenant's id. */
export async function requireCloudMedia(tenantId: string, id: string): Promise<CloudMedia> {
  const notFound = new NotFoundError(`media ${id} not found`);
  if (!MEDIA_ID.test(id)) throw notFound;
  try {
    const res = await s3Client().send(
      new GetObjectCommand({ Bucket: names.mediaBucket(), Key: recordKeyOf(tenantId, id) }),
    );
    return JSON.parse(await must(res.Body, 'the media record body').transformToString()) as CloudMedia;
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') throw notFound;
    throw err;
  }
}

export async function deleteCloudMedia(tenantId: string, id: string): Promise<void> {
  await requireCloudMedia(tenantId, id);
  const Bucket = names.mediaBucket();
  await s3Client().send(new DeleteObjectCommand({ Bucket, Key: recordKeyOf(tenantId, id) }));
  await s3Client().send(new DeleteObjectCommand({ Bucket, Key: cloudMediaKeyOf(tenantId, id) }));
}

/** A short-lived presigned GET of the bytes (for the host to send, or for a large download). */
export function cloudMediaUrl(tenantId: string, id: string): Promise<string> {
  return getSignedUrl(
    s3Client(),
    new GetObjectCommand({ Bucket: names.mediaBucket(), Key: cloudMediaKeyOf(tenantId, id) }),
    { expiresIn: PRESIGN_SECONDS },
  );
}

/** The bytes as a stream with their length. */
export async function cloudMediaBytes(tenantId: string, id: string) {
  const res = await s3Client().send(
    new GetObjectCommand({ Bucket: names.mediaBucket(), Key: cloudMediaKeyOf(tenantId, id) }),
  );
  return must(res.Body, 'the media object body').transformToWebStream();
}
