import { ValidationError } from '#shared/http/errors';
import { logger } from '#shared/log/logger';
import type { StoredFile, uploadSink } from '../media/upload.ts';
import { boundaryOf, type FilePart, readMultipart } from './multipart.ts';

/**
 * A multipart form of text fields and one file part named `file`, the file streamed to storage as
 * it arrives (never held). The upload-send routes and the Cloud media upload read their forms here.
 */

type Sink = ReturnType<typeof uploadSink>;

export interface FileForm {
  /** The text fields, as sent. */
  fields: Record<string, string>;
  /** The file part's name and declared type (`''` when none), and what was stored. */
  file: { name: string; type: string; stored: StoredFile };
  /** Deletes the stored file again (refused after it was stored, or not needed); never throws. */
  discard(): Promise<void>;
}

/**
 * Reads the form of `req`, storing its file at `key` through the sink `sinkFor` opens when the file
 * part starts (given the fields sent before it, so a sender named there is judged before the file
 * is read). A failure while reading deletes whatever was stored and is thrown.
 */
export async function readFileForm(
  req: Request,
  key: string,
  sinkFor: (part: FilePart, fields: Record<string, string>) => Sink | Promise<Sink>,
): Promise<FileForm> {
  const boundary = boundaryOf(req.headers.get('content-type') ?? undefined);
  const fields: Record<string, string> = {};
  let sink: Sink | undefined;
  let file: { name: string; type: string; stored?: StoredFile } | undefined;
  const discard = async () => {
    await sink
      ?.discard()
      .catch((err) => logger.warn({ err, key }, 'upload not removed; lifecycle rule will'));
  };
  try {
    await readMultipart(req.body, boundary, {
      field: (name, value) => {
        fields[name] = value;
      },
      file: async (part) => {
        if (part.name !== 'file' || file)
          throw new ValidationError('file: send one file part, named file', 'file');
        const s = await sinkFor(part, fields);
        const f: { name: string; type: string; stored?: StoredFile } = {
          name: part.filename,
          type: part.contentType ?? '',
        };
        [sink, file] = [s, f];
        return {
          write: (chunk) => s.write(chunk),
          end: async () => {
            f.stored = await s.end();
          },
        };
      },
    });
    const stored = file?.stored;
    if (!file || !stored)
      throw new ValidationError('file: file is required (one multipart file part)', 'file');
    return { fields, file: { name: file.name, type: file.type, stored }, discard };
  } catch (err) {
    await discard();
    throw err;
  }
}
