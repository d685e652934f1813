import { buildApp } from 'fauxqs';
import { NETWORK_LIMITS } from '../../functions/api/messages/upload.ts';

/**
 * The largest object one S3 PUT carries here: the largest file the API documents (a presigned PUT
 * of `POST /api/media/uploads`, up to the biggest kind's network limit). fauxqs caps every body at
 * 11 MiB, so a 20 MiB presigned upload failed in local mode although S3 takes it in the cloud.
 */
export const LOCAL_S3_BODY_LIMIT = Math.max(...Object.values(NETWORK_LIMITS));

export interface LocalS3Sqs {
  address: string;
  stop(): Promise<unknown>;
}

/**
 * fauxqs (S3 and SQS in this process) on a free port of the loopback address only, with S3 bodies
 * up to LOCAL_S3_BODY_LIMIT. SQS and SNS bodies keep fauxqs's limit (their handlers check sizes).
 */
export async function startS3Sqs(): Promise<LocalS3Sqs> {
  const app = buildApp({ logger: false, host: 'localhost' });
  // fauxqs reads S3 bodies with a catch-all parser under its 11 MiB server limit: the same parser
  // with the documented limit instead.
  app.removeContentTypeParser('*');
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: LOCAL_S3_BODY_LIMIT },
    (_req: unknown, body: Buffer | string, done: (err: null, body: Buffer | string) => void) =>
      done(null, body),
  );
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { address, stop: () => app.close() };
}
