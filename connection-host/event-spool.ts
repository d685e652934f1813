import { mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { HostEvent } from '#shared/events/types';

/** Media that goes to S3 before its event goes to the queue (the event names it by `key`). */
export interface HandoffMedia {
  key: string;
  bytes: Uint8Array;
  mimetype: string;
}

export interface SpoolEntry {
  event: HostEvent;
  media?: HandoffMedia;
}

/**
 * Host events the events queue (or S3) has not taken yet, on local disk: one JSON file per entry and
 * its media beside it, each written, fsynced and renamed into place before `put` resolves, removed
 * once handed on. Entry names sort in the order they were put.
 *
 * Each process writes in a folder of its own (`<host name>-<pid>`), so two hosts sharing a data
 * folder never hand on the same entry twice at once. Entry names carry the writer's pid, so adopted
 * ones keep their names and their place in the order. At `open`, the folders of processes of this
 * machine that are gone are adopted: a restart replays what the previous run could not hand on.
 * A process id reused by a live process keeps its folder until that one ends too.
 */
export class EventSpool {
  private readonly dir: string;
  private seq = 0;

  constructor(private readonly root: string) {
    this.dir = path.join(root, folderOf(hostname(), process.pid));
  }

  /** Creates the folder, adopts what gone processes left, and answers every entry waiting, oldest first. */
  async open(): Promise<string[]> {
    // Message bodies and media at rest: readable by this service's user only.
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const folder of await readdir(this.root)) {
      const owner = ownerOf(folder);
      if (!owner || owner.host !== hostname() || owner.pid === process.pid || alive(owner.pid)) continue;
      await this.adopt(path.join(this.root, folder));
    }
    return this.list();
  }

  async put(entry: SpoolEntry): Promise<string> {
    const id = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${String(this.seq++).padStart(9, '0')}`;
    if (entry.media) await writeDurably(this.file(id, 'media'), entry.media.bytes);
    const record: StoredEntry = {
      event: entry.event,
      ...(entry.media ? { media: { key: entry.media.key, mimetype: entry.media.mimetype } } : {}),
    };
    // The JSON goes last: an entry exists once it is there, with its media already beside it.
    await writeDurably(this.file(id, 'json'), Buffer.from(JSON.stringify(record)));
    return id;
  }

  async load(id: string): Promise<SpoolEntry> {
    const record = JSON.parse(await readFile(this.file(id, 'json'), 'utf8')) as StoredEntry;
    if (!record.media) return { event: record.event };
    const bytes = await readFile(this.file(id, 'media'));
    return { event: record.event, media: { ...record.media, bytes: new Uint8Array(bytes) } };
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id, 'json'), { force: true });
    await rm(this.file(id, 'media'), { force: true });
  }

  /** Sets an entry that cannot be read aside (`.bad`), for an operator to look at. */
  async quarantine(id: string): Promise<void> {
    await rename(this.file(id, 'json'), this.file(id, 'bad')).catch(() => undefined);
  }

  private file(id: string, ext: 'json' | 'media' | 'bad') {
    return path.join(this.dir, `${id}.${ext}`);
  }

  private async list(): Promise<string[]> {
    const names = await readdir(this.dir);
    const ids = new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)));
    // Media without its JSON, or a temporary file: a put cut short before the entry existed.
    for (const n of names)
      if (n.endsWith('.tmp') || (n.endsWith('.media') && !ids.has(n.slice(0, -'.media'.length))))
        await rm(path.join(this.dir, n), { force: true });
    return [...ids].sort();
  }

  /**
   * Moves a gone process's entries into this folder, keeping their names (and so their order). The
   * folder is first claimed by an atomic rename, so of two processes adopting it only one gets it;
   * a claim cut short is a folder of this (then gone) process, adopted again by the next one.
   */
  private async adopt(folder: string): Promise<void> {
    const claimed = path.join(this.root, `${path.basename(this.dir)}~${path.basename(folder)}`);
    try {
      await rename(folder, claimed);
    } catch {
      return;
    }
    for (const name of await readdir(claimed))
      await rename(path.join(claimed, name), path.join(this.dir, name));
    await rmdir(claimed);
  }
}

interface StoredEntry {
  event: HostEvent;
  media?: { key: string; mimetype: string };
}

const folderOf = (host: string, pid: number) => `${host}-${pid}`;

function ownerOf(name: string): { host: string; pid: number } | undefined {
  const folder = name.split('~')[0] ?? name;
  const cut = folder.lastIndexOf('-');
  const pid = Number(folder.slice(cut + 1));
  return cut > 0 && Number.isInteger(pid) && pid > 0 ? { host: folder.slice(0, cut), pid } : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Written to a temporary name, fsynced, then renamed: a crash leaves the old state or the new. */
async function writeDurably(file: string, data: Uint8Array): Promise<void> {
  const tmp = `${file}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
}
