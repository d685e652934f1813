import { spawn } from 'node:child_process';

/**
 * Converts any audio to OGG/Opus mono 48 kHz, the format the network plays as a push-to-talk voice
 * note. Audio that is already OGG is passed through untouched.
 */
export async function toVoiceNote(input: Uint8Array, ffmpegPath = 'ffmpeg'): Promise<Uint8Array> {
  if (isOgg(input)) return input;
  return new Promise((resolve, reject) => {
    const proc = spawn(ffmpegPath, [
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
    proc.on('error', (e) => reject(new Error(`ffmpeg unavailable: ${e.message}`)));
    proc.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`ffmpeg failed (${code}): ${Buffer.concat(err).toString().slice(0, 200)}`));
    });
    proc.stdin.on('error', () => undefined);
    proc.stdin.end(Buffer.from(input));
  });
}

function isOgg(b: Uint8Array): boolean {
  return b[0] === 0x4f && b[1] === 0x67 && b[2] === 0x67 && b[3] === 0x53;
}
