import { createHash } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { LINK_TTL_SECONDS, linkTo } from '#shared/links/links';
import { objectKey } from '#shared/store/object-keys';

/** How long a QR image's link works. */
export const QR_LINK_TTL_SECONDS = LINK_TTL_SECONDS.qr;

/** `payments/<tenant>/<sha256 of the URI>.png`: one object per distinct link, under its tenant. */
export const paymentQrKeyOf = (tenantId: string, uri: string) =>
  objectKey('paymentQr', tenantId, `${createHash('sha256').update(uri).digest('hex')}.png`);

/**
 * The QR code of `uri` as a PNG (generated here with `qrcode`, error correction M), stored in the
 * media bucket under the tenant and answered as a link of ours valid for 7 days (shared/links/links.ts).
 */
export async function paymentQrUrl(tenantId: string, uri: string): Promise<string> {
  const { default: QRCode } = await import('qrcode'); // on first use (cold start)
  const png = await QRCode.toBuffer(uri, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 512 });
  const Bucket = names.mediaBucket();
  const Key = paymentQrKeyOf(tenantId, uri);
  await s3Client().send(
    new PutObjectCommand({
      Bucket,
      Key,
      Body: png,
      ContentType: 'image/png',
      CacheControl: 'private, max-age=604800',
    }),
  );
  return linkTo(tenantId, Key, 'qr');
}
