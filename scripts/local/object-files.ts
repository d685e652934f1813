import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { must } from '#shared/must';
import { syncDir } from './queue-journal.ts';

/** An object as fauxqs holds it. */
export interface FauxObject {
  key: string;
  body: Buffer;
  contentType: string;
  contentLength: number;
  etag: string;
  lastModified: Date;
  metadata: Record<string, string>;
}

/** The parts of fauxqs's S3 store the files wrap. */
export interface FauxS3Store {
  buckets: Map<string, Map<string, FauxObject>>;
  createBucket(name: string): void;
  putObject(bucket: string, key: string, ...rest: unknown[]): FauxObject;
  deleteObject(bucket: string, key: string): void;
  completeMultipartUpload(uploadId: string, parts: unknown): FauxObject;
  multipartUploads: Map<string, { bucket: string }>;
}

type Meta = Omit<FauxObject, 'body' | 'lastModified'> & { lastModified: string };

/**
 * fauxqs keeps S3 objects in memory; this keeps each one in a file as well (`<dir>/<bucket>/`, one
 * `<hash of key>.body` and `.json` pair per object, written and synced before fauxqs answers the
 * upload), and loads a bucket's objects back when the bucket is created at the next start. They
 * are still all held in memory while the service runs, as before.
 */
export function keepObjectsIn(dir: string, store: FauxS3Store): void {
  const create = store.createBucket.bind(store);
  store.createBucket = (name) => {
    const fresh = !store.buckets.has(name);
    create(name);
    if (fresh) load(join(dir, name), must(store.buckets.get(name), `bucket ${name}, just created`));
  };
  const put = store.putObject.bind(store);
  store.putObject = (bucket, key, ...rest) => {
    const obj = put(bucket, key, ...rest);
    save(join(dir, bucket), obj);
    return obj;
  };
  const complete = store.completeMultipartUpload.bind(store);
  store.completeMultipartUpload = (uploadId, parts) => {
    const bucket = store.multipartUploads.get(uploadId)?.bucket;
    const obj = complete(uploadId, parts);
    if (bucket) save(join(dir, bucket), obj);
    return obj;
  };
  const del = store.deleteObject.bind(store);
  store.deleteObject = (bucket, key) => {
    del(bucket, key);
    const base = join(dir, bucket, fileOf(key));
    rmSync(`${base}.json`, { force: true });
    rmSync(`${base}.body`, { force: true });
  };
}

const fileOf = (key: string) => createHash('sha256').update(key).digest('hex');

function save(dir: string, obj: FauxObject): void {
  mkdirSync(dir, { recursive: true });
  const base = join(dir, fileOf(obj.key));
  const { body, lastModified, ...rest } = obj;
  // The body first: an object counts as stored once its description is in place.
  writeDurably(`${base}.body`, body);
  const meta: Meta = { ...rest, lastModified: lastModified.toISOString() };
  writeDurably(`${base}.json`, Buffer.from(JSON.stringify(meta)));
  syncDir(dir);
}

function writeDurably(file: string, data: Buffer): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

function load(dir: string, objects: Map<string, FauxObject>): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const base = join(dir, name.slice(0, -'.json'.length));
    if (!existsSync(`${base}.body`)) continue;
    const meta = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Meta;
    objects.set(meta.key, {
      ...meta,
      body: readFileSync(`${base}.body`),
      lastModified: new Date(meta.lastModified),
    });
  }
}
