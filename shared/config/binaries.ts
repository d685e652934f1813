import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { env } from './env.ts';

/**
 * Which ffmpeg and ffprobe a process runs (docs/dependencies.md, "Binaries"): the operator's
 * VOICE_FFMPEG_PATH / VOICE_FFPROBE_PATH when set (the host image sets Debian's, the media Lambda a
 * layer's), else the static build `npm install` put in node_modules (`@ffmpeg-installer/<platform>`,
 * `@ffprobe-installer/<platform>`: local mode and tests), else the bare name, looked up on PATH.
 */
export function ffmpegPath(): string {
  return env().VOICE_FFMPEG_PATH ?? fromNpm().ffmpeg;
}

export function ffprobePath(): string {
  return env().VOICE_FFPROBE_PATH ?? fromNpm().ffprobe;
}

/** Both paths as the media describers take them. */
export function ffmpegPaths(): { ffmpeg: string; ffprobe: string } {
  return { ffmpeg: ffmpegPath(), ffprobe: ffprobePath() };
}

let installed: { ffmpeg: string; ffprobe: string } | undefined;

function fromNpm(): { ffmpeg: string; ffprobe: string } {
  if (installed) return installed;
  const platform = `${process.platform}-${process.arch}`;
  const exe = process.platform === 'win32' ? '.exe' : '';
  // The wrapper packages pick the platform package as an optional dependency; its folder holds the binary.
  const find = (scope: string, name: string) => {
    try {
      const pkg = createRequire(import.meta.url).resolve(`${scope}/${platform}/package.json`);
      const bin = join(dirname(pkg), name + exe);
      return existsSync(bin) ? bin : name;
    } catch {
      return name;
    }
  };
  installed = { ffmpeg: find('@ffmpeg-installer', 'ffmpeg'), ffprobe: find('@ffprobe-installer', 'ffprobe') };
  return installed;
}
