import { spawnSync } from 'node:child_process';
import { ffmpegPath } from '../../shared/config/binaries.ts';

/** One second of a 440 Hz tone, encoded by ffmpeg as OGG with the given codec. */
export function oggTone(codec: 'libvorbis' | 'libopus' = 'libopus'): Buffer {
  const r = spawnSync(ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-c:a',
    codec,
    '-f',
    'ogg',
    'pipe:1',
  ]);
  // Not installed: spawnSync reports ENOENT in `error`, with no status or output.
  if (r.error) throw new Error(`ffmpeg could not run (npm install brings it): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  return r.stdout;
}
