import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

export interface MediaFile {
  bytes: Buffer;
  mimetype: string;
  sha256: string;
}

const file = (bytes: Buffer, mimetype: string): MediaFile => ({
  bytes,
  mimetype,
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

/** An Ogg page header whose first packet is `OpusHead`: what file-type and the host see as Ogg/Opus. */
function oggOpus(size: number): Buffer {
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'latin1');
  header[5] = 0x02;
  header[26] = 1;
  header[27] = 19;
  return Buffer.concat([header, Buffer.from('OpusHead', 'latin1'), randomBytes(size)]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid RGB PNG of random pixels (`side` × `side`). */
function png(side: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = Array.from({ length: side }, () => Buffer.concat([Buffer.from([0]), randomBytes(side * 3)]));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows), { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PCM WAV (mono, 16 kHz, 16-bit) of a 440 Hz tone: audio ffmpeg can really convert. */
function wavTone(seconds: number): Buffer {
  const rate = 16_000;
  const samples = Math.floor(rate * seconds);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** Media whose type is recognisable from its first bytes, and random after, so each hash is unique. */
export const fixtures = {
  png: (side = 24) => file(png(side), 'image/png'),
  /** A PNG padded after its end to `bytes` bytes (still detected as PNG). */
  bigPng: (bytes: number) => {
    const head = png(8);
    return file(Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length), 7)]), 'image/png');
  },
  pdf: (size = 2048) =>
    file(Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), randomBytes(size)]), 'application/pdf'),
  mp3: (size = 2048) =>
    file(Buffer.concat([Buffer.from('fffb9064', 'hex'), randomBytes(size)]), 'audio/mpeg'),
  ogg: (size = 2048) => file(oggOpus(size), 'audio/ogg'),
  wav: (seconds = 1) => file(wavTone(seconds), 'audio/wav'),
  mp4: (size = 2048) =>
    file(
      Buffer.concat([
        Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'),
        randomBytes(size),
      ]),
      'video/mp4',
    ),
  text: (content = 'name,phone\nAsha,919800000001\n') => file(Buffer.from(content), 'text/csv'),
};

/** A local HTTP server that serves the given files at `/<name>` (the service may fetch loopback in tests). */
export async function mediaServer(
  files: Record<string, MediaFile>,
): Promise<{ url: (name: string) => string; close(): Promise<void>; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
    hits.push(name);
    const f = files[name];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f.mimetype, 'content-length': f.bytes.length }).end(f.bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
