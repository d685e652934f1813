import { ServiceError, ValidationError } from '#shared/http/errors';
import { must } from '#shared/must';

/**
 * A `multipart/form-data` body read as it arrives, never held whole: small text fields are
 * collected, a file part is handed on chunk by chunk (the caller streams it to storage). Parsing a
 * 64 MiB upload with `Request.formData()` kept all of it in memory, and six at once grew the process
 * by about 900 MB.
 */

/** One text field: enough for every field of the upload forms. */
const FIELD_MAX_BYTES = 64 * 1024;
const FIELDS_MAX = 50;
const HEADERS_MAX_BYTES = 16 * 1024;

export interface FilePart {
  name: string;
  filename: string;
  contentType: string | undefined;
}

export interface MultipartHandlers {
  /** A text field, decoded and checked (valid UTF-8, no NUL). */
  field(name: string, value: string): void | Promise<void>;
  /**
   * A file part begins: answers the sink its bytes go to. The reader waits for each `write`, so a
   * slow sink slows the reading of the request (backpressure) instead of filling memory.
   */
  file(part: FilePart): Promise<{ write(chunk: Uint8Array): Promise<void>; end(): Promise<void> }>;
}

/** The boundary of a `multipart/form-data` content type; 415 without one. */
export function boundaryOf(contentType: string | undefined): string {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !boundary)
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'this route takes multipart/form-data with a boundary');
  return boundary;
}

const malformed = (why: string) => new ValidationError(`body: not a valid multipart body (${why})`, 'body');

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeField(name: string, bytes: Uint8Array): string {
  let value: string;
  try {
    value = utf8.decode(bytes);
  } catch {
    throw new ValidationError(`${name}: text must be valid UTF-8`, name);
  }
  if (value.includes('\0')) throw new ValidationError(`${name}: text may not contain NUL`, name);
  return value;
}

function parseHeaders(block: string): { name: string; filename?: string; contentType?: string } {
  let disposition = '';
  let contentType: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') contentType = value;
  }
  const param = (p: string) => new RegExp(`;\\s*${p}="([^"]*)"`, 'i').exec(disposition)?.[1];
  const name = param('name');
  if (!/^form-data/i.test(disposition) || name === undefined)
    throw malformed('a part without a form-data name');
  return { name, filename: param('filename'), contentType };
}

type Sink = Awaited<ReturnType<MultipartHandlers['file']>>;

/**
 * The rest of a body read and dropped, in the background. A refusal is answered at once, but the
 * stream is not cancelled: that would close the socket while the client is still sending, and the
 * client would see a reset instead of the answer. Bounded by the API's body limit (app.ts).
 */
function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    for (;;) if ((await reader.read()).done) return;
  })().catch(() => undefined);
}

/**
 * Reads the whole body, part by part, calling the handlers in order. Throws a 400 for a body that
 * is not well-formed multipart or ends early; when a handler throws, that error, with the rest of
 * the body left to drain.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
  on: MultipartHandlers,
): Promise<void> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The body's first boundary has no CRLF before it: one is prepended so every delimiter is alike.
  let buf: Buffer = Buffer.from('\r\n');
  let state = 'preamble' as 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done';
  let fields = 0;
  let part: { field?: { name: string; chunks: Buffer[]; size: number }; sink?: Sink } | undefined;

  const deliver = async (bytes: Buffer) => {
    if (!bytes.length || !part) return;
    if (part.sink) return part.sink.write(bytes);
    const f = must(part.field, 'a text field (a part without a file sink)');
    f.size += bytes.length;
    if (f.size > FIELD_MAX_BYTES)
      throw new ValidationError(`${f.name}: a field may be at most ${FIELD_MAX_BYTES} bytes`, f.name);
    f.chunks.push(Buffer.from(bytes));
  };
  const finish = async () => {
    if (part?.sink) await part.sink.end();
    else if (part?.field)
      await on.field(part.field.name, decodeField(part.field.name, Buffer.concat(part.field.chunks)));
    part = undefined;
  };

  /** Consumes what `buf` holds; returns when more bytes are needed. */
  const step = async () => {
    for (;;) {
      if (state === 'done') return;
      if (state === 'preamble' || state === 'body') {
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          // Keep the tail that may be the start of a delimiter; the rest is the part's.
          const keep = Math.min(buf.length, delimiter.length - 1);
          if (state === 'body') await deliver(buf.subarray(0, buf.length - keep));
          buf = Buffer.from(buf.subarray(buf.length - keep));
          return;
        }
        if (state === 'body') {
          await deliver(buf.subarray(0, at));
          await finish();
        }
        buf = buf.subarray(at + delimiter.length);
        state = 'after-delimiter';
        continue;
      }
      if (state === 'after-delimiter') {
        if (buf.length < 2) return;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          state = 'done';
          return;
        }
        // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
        const eol = buf.indexOf('\r\n');
        if (eol < 0) {
          if (buf.length > 256) throw malformed('no line break after a boundary');
          return;
        }
        if (buf.subarray(0, eol).toString('latin1').trim()) throw malformed('text after a boundary');
        buf = buf.subarray(eol + 2);
        state = 'headers';
        continue;
      }
      // headers
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buf.length > HEADERS_MAX_BYTES) throw malformed('part headers too long');
        return;
      }
      const h = parseHeaders(buf.subarray(0, end).toString('utf8'));
      buf = buf.subarray(end + 4);
      state = 'body';
      if (h.filename !== undefined) {
        part = { sink: await on.file({ name: h.name, filename: h.filename, contentType: h.contentType }) };
      } else {
        if (++fields > FIELDS_MAX) throw malformed(`more than ${FIELDS_MAX} fields`);
        part = { field: { name: h.name, chunks: [], size: 0 } };
      }
    }
  };

  if (!body) throw malformed('there is no body');
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf = buf.length ? Buffer.concat([buf, value]) : Buffer.from(value);
      await step();
      if (state === 'done') break;
    }
  } finally {
    drain(reader);
  }
  if (state !== 'done') throw malformed('it ends before its closing boundary');
}
