import { spawn } from 'node:child_process';
import { ffmpegPath } from '../config/binaries.ts';

/**
 * Converts any audio to OGG/Opus mono 48 kHz, the format the network plays as a push-to-talk voice
 * note. OGG/Opus is passed through untouched; any other OGG (Vorbis) would not play, so it is converted.
 */
export async function toVoiceNote(input: Uint8Array, ffmpeg = ffmpegPath()): Promise<Uint8Array> {
  if (isOggOpus(input)) return input;
  return new Promise((resolve, reject) => {
    const proc = spawn(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      'pipe:0',
      '-vn',
      '-ac',
      '1',
      '-ar',
      '48000',
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      '-f',
      'ogg',
      'pipe:1',
    ]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    proc.stdout.on('data', (d: Buffer) => out.push(d));
    proc.stderr.on('data', (d: Buffer) => err.push(d));
    proc.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'ENOENT'
            ? `ffmpeg is not installed (${ffmpeg}): npm install brings @ffmpeg-installer/ffmpeg, or set VOICE_FFMPEG_PATH`
            : `ffmpeg unavailable: ${e.message}`,
        ),
      ),
    );
    proc.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`ffmpeg failed (${code}): ${Buffer.concat(err).toString().slice(0, 200)}`));
    });
    proc.stdin.on('error', () => undefined);
    proc.stdin.end(Buffer.from(input));
  });
}

/** An OGG stream whose first page carries the Opus identification header (`OpusHead`, RFC 7845). */
function isOggOpus(b: Uint8Array): boolean {
  if (Buffer.from(b.subarray(0, 4)).toString('latin1') !== 'OggS' || b.length < 27) return false;
  // The first packet starts after the 27-byte page header and its segment table.
  const start = 27 + (b[26] ?? 0);
  return Buffer.from(b.subarray(start, start + 8)).toString('latin1') === 'OpusHead';
}
