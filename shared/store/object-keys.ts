/**
 * Every object key the code writes to the media bucket, by prefix, with how long each prefix's
 * objects live: the code that writes an object and the bucket's lifecycle rules
 * (shared/aws/resources.ts, built by the local bootstrap and the CDK stack) read the same entry, so
 * a prefix cannot be written under one spelling and expired under another. Every key starts with
 * its prefix and then the tenant, so a key names whose object it is.
 */
export const objectPrefixes = {
  /** Sent files: deleted by the service seconds after use; the day is the backstop. */
  uploads: { prefix: 'uploads/', expireDays: 1 },
  /** Cloud API media ids (functions/api/media/cloud-media.ts): kept 30 days, as Meta keeps them. */
  cloudMedia: { prefix: 'cloud-media/', expireDays: 30 },
  /** Synthesised speech: its link works 1 hour (shared/speech/routes.ts). */
  speech: { prefix: 'tts/', expireDays: 1 },
  /** Large contacts exports: their link works 24 hours (functions/api/contacts-export). */
  exports: { prefix: 'exports/', expireDays: 2 },
  /** Payment QR images: their link works 7 days and each new link writes the image again. */
  paymentQr: { prefix: 'payments/', expireDays: 8 },
  /** Inbound media: kept as long as its message. */
  inboundMedia: { prefix: 'media/' },
  /** Chatbot knowledge too large for its item, under a content hash: kept while the item points at it. */
  knowledge: { prefix: 'chatbot/' },
  /** Every version of an extraction record: kept. */
  extractions: { prefix: 'extractions/' },
} as const satisfies Record<string, { prefix: string; expireDays?: number }>;

type Kind = keyof typeof objectPrefixes;

/** `<prefix><tenant>/<rest>`: the key of a tenant's object of this kind. */
export const objectKey = (kind: Kind, tenantId: string, ...rest: string[]): string =>
  `${objectPrefixes[kind].prefix}${[tenantId, ...rest].join('/')}`;

/** The prefixes whose objects expire, for the bucket's lifecycle rules. */
export const expiringPrefixes = (): Array<{ prefix: string; days: number }> =>
  Object.values(objectPrefixes).flatMap((p) =>
    'expireDays' in p ? [{ prefix: p.prefix, days: p.expireDays }] : [],
  );
