import { closeSync, existsSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DynamoDB Local keeps its tables in one SQLite file and sets no journal mode, so SQLite uses its
 * default rollback journal: every write request creates, syncs and deletes a journal file, four
 * fsyncs a request (docs/benchmarks.md). In write-ahead-log mode a commit appends to the log and
 * syncs it once, just as durably (SQLite's default `synchronous` is FULL in both modes), and
 * readers no longer wait for writers.
 *
 * WAL mode is a property of the database file (bytes 18 and 19 of its header are 2), which SQLite
 * honours on every open: the file is created in that mode here before DynamoDB Local first opens it,
 * and a file in rollback mode (an older data directory) is switched while nothing has it open and
 * no hot journal waits to be rolled back. DynamoDB Local has no option for it.
 */

/** The file DynamoDB Local uses with `-sharedDb`. */
export const sharedDbFile = (dir: string) => join(dir, 'shared-local-instance.db');

const PAGE_SIZE = 4096;
const HEADER_MODE_OFFSET = 18;
const ROLLBACK = 1;
const WAL = 2;

/** An empty SQLite database (one empty page) whose header says WAL mode. */
function emptyWalDatabase(): Buffer {
  const page = Buffer.alloc(PAGE_SIZE);
  page.write('SQLite format 3\0', 0, 'latin1');
  page.writeUInt16BE(PAGE_SIZE, 16);
  page[18] = WAL; // file format write version
  page[19] = WAL; // file format read version
  page[20] = 0; // reserved bytes per page
  page[21] = 64; // maximum embedded payload fraction (fixed)
  page[22] = 32; // minimum embedded payload fraction (fixed)
  page[23] = 32; // leaf payload fraction (fixed)
  page.writeUInt32BE(1, 24); // file change counter
  page.writeUInt32BE(1, 28); // database size in pages (valid: change counter = version-valid-for)
  page.writeUInt32BE(4, 44); // schema format number
  page.writeUInt32BE(1, 56); // text encoding: UTF-8
  page.writeUInt32BE(1, 92); // version-valid-for
  page.writeUInt32BE(3_045_000, 96); // the SQLite version that wrote it (informational)
  // Page 1 is the schema table's root: an empty table b-tree leaf after the 100-byte header.
  page[100] = 0x0d;
  page.writeUInt16BE(0, 101); // first freeblock
  page.writeUInt16BE(0, 103); // cells
  page.writeUInt16BE(PAGE_SIZE, 105); // start of the cell content area
  return page;
}

/**
 * Makes DynamoDB Local's database in `dir` use SQLite's write-ahead log; answers the journal mode
 * the file is in now ('wal', or 'rollback' when it was left as it is: a hot journal or an unknown
 * header).
 */
export function useWriteAheadLog(dir: string): 'wal' | 'rollback' {
  const file = sharedDbFile(dir);
  if (!existsSync(file)) {
    writeFileSync(file, emptyWalDatabase(), { flag: 'wx' });
    return 'wal';
  }
  const fd = openSync(file, 'r+');
  try {
    const mode = Buffer.alloc(2);
    if (readSync(fd, mode, 0, 2, HEADER_MODE_OFFSET) < 2) return 'rollback';
    if (mode[0] === WAL && mode[1] === WAL) return 'wal';
    // A hot journal is rolled back by the next open, in rollback mode; switch at a later start.
    if (mode[0] !== ROLLBACK || mode[1] !== ROLLBACK || existsSync(`${file}-journal`)) return 'rollback';
    writeSync(fd, Buffer.from([WAL, WAL]), 0, 2, HEADER_MODE_OFFSET);
    return 'wal';
  } finally {
    closeSync(fd);
  }
}
