import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { LINK_TTL_SECONDS, linkTo } from '#shared/links/links';
import { objectKey } from '#shared/store/object-keys';

/** How long the download link of a large export works. */
export const EXPORT_LINK_TTL_SECONDS = LINK_TTL_SECONDS.export;

export const exportKeyOf = (tenantId: string, stamp: string) =>
  objectKey('exports', tenantId, `contacts-${stamp}-${randomUUID().slice(0, 8)}.csv`);

/**
 * Streams `body` into the media bucket (multipart upload, 5 MiB parts sent one at a time, so the file is never whole in
 * memory) and answers a link of ours to it (shared/links/links.ts).
 */
export async function uploadExport(
  tenantId: string,
  key: string,
  body: ReadableStream<Uint8Array>,
  fileName: string,
): Promise<{ url: string; expiresIn: number }> {
  const Bucket = names.mediaBucket();
  const { Upload } = await import('@aws-sdk/lib-storage'); // on first use (cold start)
  await new Upload({
    client: s3Client(),
    queueSize: 1,
    partSize: 5 * 1024 * 1024,
    params: {
      Bucket,
      Key: key,
      Body: Readable.fromWeb(body as import('node:stream/web').ReadableStream),
      ContentType: 'text/csv; charset=utf-8',
      ContentDisposition: `attachment; filename="${fileName}.csv"`,
    },
  }).done();
  const url = await linkTo(tenantId, key, 'export');
  return { url, expiresIn: EXPORT_LINK_TTL_SECONDS };
}
