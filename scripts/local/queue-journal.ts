import {
  closeSync,
  existsSync,
  fdatasync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  write,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** A message as fauxqs holds it (the fields the journal needs; the rest travel along as data). */
export interface FauxMessage {
  messageId: string;
  delayUntil?: number;
  [field: string]: unknown;
}

/** The parts of a fauxqs queue the journal wraps. */
export interface FauxQueue {
  name: string;
  inflightMessages: Map<string, { message: FauxMessage }>;
  enqueue(msg: FauxMessage): void;
  deleteMessage(receiptHandle: string): boolean;
  purge(): void;
}

/** The parts of fauxqs's SQS store the journal wraps. */
export interface FauxSqsStore {
  createQueue(name: string, ...rest: unknown[]): FauxQueue;
  deleteQueue(url: string): boolean;
  getQueue(url: string): FauxQueue | undefined;
}

type Line = { put: string; m: FauxMessage } | { del: string } | { purge: string };

/**
 * fauxqs keeps its queues in memory; this makes them survive a crash of `npm start`. Every message
 * a queue takes (sent, moved to a dead-letter queue) is appended to one file as a line, every
 * message deleted or purged as another, and the lines of a request are written before fauxqs
 * answers it (`flush`, from the server's onSend hook): what SendMessage acknowledged is on disk,
 * synced (concurrent requests share one sync).
 * A restart reads the file back and puts each message still held into its queue when the queue is
 * created again (the bootstrap creates every queue at each start).
 *
 * Not kept: receive counts after the send (a poison message gets its `maxReceiveCount` afresh
 * after a restart), the visibility of messages in flight (they come back at once: the consumers
 * that held them died with the process; a webhook job whose claim is still fresh is dropped by its
 * consumer, and the sweeper re-drives it, functions/webhooks/sweep.ts), FIFO deduplication ids.
 */
export class QueueJournal {
  /** Messages held, by id: what a compaction writes. */
  private readonly live = new Map<string, { queue: string; line: string }>();
  /** Restored messages per queue name, put back when that queue is created. */
  private readonly restored = new Map<string, FauxMessage[]>();
  private pending: string[] = [];
  private mustSync = false;
  private writing = false;
  /** Lines appended, and how many of them are on disk. */
  private appended = 0;
  private written = 0;
  private waiters: Array<{ upTo: number; resolve: () => void; reject: (err: Error) => void }> = [];
  private lines = 0;
  private fd: number;

  constructor(private readonly file: string) {
    if (existsSync(file)) this.replay(readFileSync(file, 'utf8'));
    for (const [id, { queue, line }] of this.live) {
      const m = (JSON.parse(line) as { m: FauxMessage }).m;
      if (m.messageId !== id) continue;
      const list = this.restored.get(queue) ?? [];
      list.push(m);
      this.restored.set(queue, list);
    }
    this.fd = this.compact();
  }

  /** Messages restored from the file and not yet put back (their queue was not created). */
  get waiting(): number {
    let n = 0;
    for (const list of this.restored.values()) n += list.length;
    return n;
  }

  /** Journals every queue `store` creates from now on, and gives each its restored messages. */
  attach(store: FauxSqsStore): void {
    const create = store.createQueue.bind(store);
    store.createQueue = (name, ...rest) => {
      const queue = create(name, ...rest);
      this.wrap(queue);
      return queue;
    };
    const remove = store.deleteQueue.bind(store);
    store.deleteQueue = (url) => {
      const queue = store.getQueue(url);
      if (queue) this.purged(queue.name);
      return remove(url);
    };
  }

  /** Nothing appended is waiting to be written. */
  get idle(): boolean {
    return this.written >= this.appended;
  }

  /**
   * Resolves once every line appended so far is written (and synced, when one took a message).
   * Requests that flush while a write is under way share the next one: one sync for all of them
   * (a group commit), off the event loop.
   */
  flush(): Promise<void> {
    const upTo = this.appended;
    if (this.written >= upTo) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo, resolve, reject });
      this.writeNext();
    });
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    closeSync(this.fd);
  }

  private writeNext(): void {
    if (this.writing || !this.pending.length) return;
    this.writing = true;
    const text = this.pending.join('');
    const upTo = this.appended;
    const sync = this.mustSync;
    this.pending = [];
    this.mustSync = false;
    const done = (err: Error | null) => {
      this.writing = false;
      const settled = this.waiters.filter((w) => w.upTo <= upTo);
      this.waiters = this.waiters.filter((w) => w.upTo > upTo);
      if (err) {
        // Those requests answer an error and are sent again (a duplicate at worst: consumers are idempotent).
        for (const w of settled) w.reject(err);
      } else {
        this.written = upTo;
        for (const w of settled) w.resolve();
        if (this.lines > 10_000 && this.lines > 4 * this.live.size) {
          closeSync(this.fd);
          this.fd = this.compact();
        }
      }
      this.writeNext();
    };
    write(this.fd, text, (err) => {
      if (err || !sync) return done(err);
      // A lost delete only delivers a message again (every consumer is idempotent); a lost message
      // would break an acknowledgement: only what takes a message waits for the disk.
      fdatasync(this.fd, done);
    });
  }

  private wrap(queue: FauxQueue): void {
    const enqueue = queue.enqueue.bind(queue);
    const del = queue.deleteMessage.bind(queue);
    const purge = queue.purge.bind(queue);
    queue.enqueue = (msg) => {
      enqueue(msg);
      this.append({ put: queue.name, m: msg });
    };
    queue.deleteMessage = (handle) => {
      const held = queue.inflightMessages.get(handle);
      const deleted = del(handle);
      if (deleted && held) this.append({ del: held.message.messageId });
      return deleted;
    };
    queue.purge = () => {
      purge();
      this.purged(queue.name);
    };
    for (const m of this.restored.get(queue.name) ?? []) enqueue(m);
    this.restored.delete(queue.name);
  }

  private purged(queue: string): void {
    this.append({ purge: queue });
    this.restored.delete(queue);
  }

  private append(entry: Line): void {
    const line = `${JSON.stringify(entry)}\n`;
    this.apply(entry, line);
    this.pending.push(line);
    this.appended++;
    this.lines++;
    if ('put' in entry) this.mustSync = true;
  }

  private apply(entry: Line, line: string): void {
    if ('put' in entry) this.live.set(entry.m.messageId, { queue: entry.put, line });
    else if ('del' in entry) this.live.delete(entry.del);
    else for (const [id, held] of this.live) if (held.queue === entry.purge) this.live.delete(id);
  }

  private replay(text: string): void {
    for (const line of text.split('\n')) {
      if (!line) continue;
      let entry: Line;
      try {
        entry = JSON.parse(line) as Line;
      } catch {
        // The last line of a write cut short by the crash: its request was never answered.
        continue;
      }
      this.apply(entry, `${line}\n`);
    }
  }

  /** Rewrites the file with the messages held only (atomically), and opens it for appending. */
  private compact(): number {
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w');
    let text = '';
    for (const { line } of this.live.values()) text += line;
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.file);
    syncDir(dirname(this.file));
    this.lines = this.live.size;
    return openSync(this.file, 'a');
  }
}

/** Makes a rename durable (the directory entry), where the platform allows opening a directory. */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported here (Windows): the rename is still atomic, only its timing is not forced.
  }
}
