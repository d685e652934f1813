import { describe, expect, it } from 'vitest';
import { must } from '../../../tests/support/must.ts';
import { boundaryOf, readMultipart } from './multipart.ts';

/** A form as fetch serialises it, cut into chunks of `size` bytes (a delimiter may straddle two). */
async function serialised(form: FormData, size: number) {
  const res = new Response(form);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return { chunks, boundary: boundaryOf(res.headers.get('content-type') ?? undefined) };
}

async function read(chunks: Iterable<Uint8Array>, boundary: string) {
  const fields: Record<string, string> = {};
  const files: Array<{ name: string; filename: string; type?: string; bytes: Buffer }> = [];
  await readMultipart(
    new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    }),
    boundary,
    {
      field: (name, value) => {
        fields[name] = value;
      },
      file: async (part) => {
        const parts: Buffer[] = [];
        return {
          write: async (c) => {
            parts.push(Buffer.from(c));
          },
          end: async () => {
            files.push({
              name: part.name,
              filename: part.filename,
              type: part.contentType,
              bytes: Buffer.concat(parts),
            });
          },
        };
      },
    },
  );
  return { fields, files };
}

describe('readMultipart', () => {
  const file = Buffer.alloc(30_000);
  for (let i = 0; i < file.length; i++) file[i] = (i * 7919) % 256;
  // Bytes that look like a delimiter's start inside the file.
  file.write('\r\n--', 1000, 'latin1');

  it('reads fields and a file whatever the chunking, the file bytes unchanged', async () => {
    const form = new FormData();
    form.append('sessionId', 'qr_1');
    form.append('caption', 'नमस्ते 😀');
    form.append('file', new Blob([file], { type: 'application/octet-stream' }), 'a.bin');
    form.append('to', '919800000001');
    for (const size of [3, 70, 4096, 1 << 20]) {
      const { chunks, boundary } = await serialised(form, size);
      const r = await read(chunks, boundary);
      expect(r.fields, `chunks of ${size}`).toEqual({
        sessionId: 'qr_1',
        caption: 'नमस्ते 😀',
        to: '919800000001',
      });
      expect(r.files).toHaveLength(1);
      expect(r.files[0]).toMatchObject({ name: 'file', filename: 'a.bin', type: 'application/octet-stream' });
      expect(must(r.files[0], 'the file').bytes.equals(file)).toBe(true);
    }
  });

  it('refuses a body that ends early, a field that is not UTF-8 or holds NUL, and no boundary', async () => {
    const form = new FormData();
    form.append('to', '1');
    const { chunks, boundary } = await serialised(form, 1 << 20);
    const whole = Buffer.from(must(chunks[0], 'the one chunk'));
    await expect(read([whole.subarray(0, whole.length - 10)], boundary)).rejects.toThrow(/ends before/);
    const field = (value: Buffer) =>
      Buffer.concat([
        Buffer.from(`--b\r\nContent-Disposition: form-data; name="caption"\r\n\r\n`),
        value,
        Buffer.from('\r\n--b--\r\n'),
      ]);
    // A lone surrogate's UTF-8 spelling (CESU), and NUL.
    await expect(read([field(Buffer.from([0xed, 0xa0, 0x80]))], 'b')).rejects.toThrow(
      /caption: text must be valid UTF-8/,
    );
    await expect(read([field(Buffer.from('a\0b'))], 'b')).rejects.toThrow(
      /caption: text may not contain NUL/,
    );
    expect(() => boundaryOf('multipart/form-data')).toThrow(/boundary/);
    expect(() => boundaryOf('application/json')).toThrow(/multipart/);
  });
});
