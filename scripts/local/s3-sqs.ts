import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from 'fauxqs';
import { NETWORK_LIMITS } from '../../functions/api/media/upload.ts';
import { LOOPBACK } from './free-port.ts';
import { type FauxS3Store, keepObjectsIn } from './object-files.ts';
import { type FauxSqsStore, QueueJournal } from './queue-journal.ts';

/**
 * The largest object one S3 PUT carries here: the largest file the API documents (a presigned PUT
 * of `POST /api/media/uploads`, up to the biggest kind's network limit). fauxqs caps every body at
 * 11 MiB, so a 20 MiB presigned upload failed in local mode although S3 takes it in the cloud.
 */
export const LOCAL_S3_BODY_LIMIT = Math.max(...Object.values(NETWORK_LIMITS));

export interface LocalS3Sqs {
  /** The endpoint of both services. */
  address: string;
  stop(): Promise<void>;
}

/**
 * fauxqs (S3 and SQS on one port) in this process, on a free loopback port. With `dir`, its queues
 * and objects survive a crash: messages in an append-only journal (`<dir>/sqs/journal.jsonl`,
 * queue-journal.ts), objects in files (`<dir>/s3/`, object-files.ts), each written before fauxqs
 * answers the request that made it. Without one, everything lives in memory.
 */
export async function startS3Sqs(dir?: string): Promise<LocalS3Sqs> {
  // fauxqs builds its stores itself unless given them, and exports only its app: the store classes
  // are taken from the files beside it, so the journal can wrap the very stores the app uses.
  const dist = fauxqsDist();
  const load = (file: string) => import(pathToFileURL(join(dist, file)).href);
  const { SqsStore } = await load('sqs/sqsStore.js');
  const { SnsStore } = await load('sns/snsStore.js');
  const { S3Store } = await load('s3/s3Store.js');
  const stores = { sqsStore: new SqsStore(), snsStore: new SnsStore(), s3Store: new S3Store() };

  let journal: QueueJournal | undefined;
  if (dir) {
    mkdirSync(join(dir, 'sqs'), { recursive: true });
    journal = new QueueJournal(join(dir, 'sqs', 'journal.jsonl'));
    journal.attach(stores.sqsStore as FauxSqsStore);
    keepObjectsIn(join(dir, 's3'), stores.s3Store as FauxS3Store);
  }
  const app = buildApp({ logger: false, host: 'localhost', stores });
  // fauxqs reads S3 bodies with a catch-all parser under its 11 MiB server limit: the same parser
  // with the documented limit instead.
  app.removeContentTypeParser('*');
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: LOCAL_S3_BODY_LIMIT },
    (_req: unknown, body: Buffer | string, done: (err: null, body: Buffer | string) => void) =>
      done(null, body),
  );
  // Before an SQS answer leaves, what the request changed is on disk (S3 objects are written as
  // they are stored, object-files.ts). A write that fails answers an error: the sender tries again.
  // Only SQS answers are held: fauxqs's S3 handlers send without returning their reply, which a
  // hook that answers later would make Fastify send twice.
  app.addHook(
    'onSend',
    (
      req: { headers: Record<string, string | string[] | undefined> },
      _reply: unknown,
      _payload: unknown,
      done: (err?: Error) => void,
    ) => {
      const sqs = String(req.headers['content-type'] ?? '').includes('application/x-amz-json-1.0');
      if (!journal || !sqs || journal.idle) return done();
      journal.flush().then(() => done(), done);
    },
  );
  const address = await app.listen({ port: 0, host: LOOPBACK });
  return {
    address,
    async stop() {
      await app.close();
      await journal?.close();
    },
  };
}

/**
 * fauxqs's `dist` folder, found where Node would look for the package (its `exports` name no
 * file for `require`, and Vitest's module runner has no `import.meta.resolve`).
 */
function fauxqsDist(): string {
  for (const dir of createRequire(import.meta.url).resolve.paths('fauxqs') ?? []) {
    const dist = join(dir, 'fauxqs', 'dist');
    if (existsSync(join(dist, 'app.js'))) return dist;
  }
  throw new Error('fauxqs is not installed (npm install)');
}
