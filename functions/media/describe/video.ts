import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeError } from './errors.ts';

export interface FfmpegPaths {
  ffmpeg: string;
  ffprobe: string;
}

export interface VideoProbe {
  durationS: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

/** Opus in OGG, mono 16 kHz: what a voice note is, so every speech provider takes it. */
export const AUDIO_TRACK_MIMETYPE = 'audio/ogg; codecs=opus';

/** ffmpeg and ffprobe need a seekable file (an MP4's index may sit at its end), so the bytes go to a temp file. */
export async function withTempFile<T>(bytes: Uint8Array, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'describe-'));
  try {
    const path = join(dir, 'input');
    await writeFile(path, bytes);
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function probeVideo(paths: FfmpegPaths, file: string, signal: AbortSignal): Promise<VideoProbe> {
  const out = await run(
    paths.ffprobe,
    ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', file],
    signal,
  );
  let json: { format?: { duration?: string }; streams?: { codec_type?: string }[] };
  try {
    json = JSON.parse(out.toString('utf8'));
  } catch {
    throw new DescribeError('DESCRIBE_UNSUPPORTED', 'ffprobe could not read the video');
  }
  const types = (json.streams ?? []).map((s) => s.codec_type);
  return {
    durationS: Number(json.format?.duration) || 0,
    hasVideo: types.includes('video'),
    hasAudio: types.includes('audio'),
  };
}

/** `count` JPEG frames evenly spaced over the video (at the middle of equal slices), at most `width` px wide. */
export async function keyframes(
  paths: FfmpegPaths,
  file: string,
  durationS: number,
  count: number,
  width: number,
  signal: AbortSignal,
): Promise<{ atS: number; jpeg: Buffer }[]> {
  const frames: { atS: number; jpeg: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const atS = Math.round(((durationS * (i + 0.5)) / count) * 100) / 100;
    // -ss before -i seeks by the index, so each frame costs one decode, not a decode from the start.
    const jpeg = await run(
      paths.ffmpeg,
      [
        ...['-hide_banner', '-loglevel', 'error', '-ss', String(atS), '-i', file],
        ...['-frames:v', '1', '-vf', `scale='min(${width},iw)':-2`, '-c:v', 'mjpeg', '-q:v', '5'],
        ...['-f', 'image2pipe', 'pipe:1'],
      ],
      signal,
    );
    if (jpeg.byteLength) frames.push({ atS, jpeg });
  }
  return frames;
}

export function audioTrack(paths: FfmpegPaths, file: string, signal: AbortSignal): Promise<Buffer> {
  return run(
    paths.ffmpeg,
    [
      ...['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '16000'],
      ...['-c:a', 'libopus', '-b:a', '24k', '-f', 'ogg', 'pipe:1'],
    ],
    signal,
  );
}

/** Runs a tool to completion and returns its stdout; killed when `signal` aborts. */
function run(cmd: string, args: string[], signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { signal, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 2000) err += c.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.name === 'AbortError') reject(new DescribeError('DESCRIBE_TIMEOUT', 'the analysis was cut off'));
      else if (e.code === 'ENOENT')
        reject(
          new DescribeError(
            'DESCRIBE_FFMPEG_FAILED',
            `${cmd} is not installed: npm install brings it (@ffmpeg-installer, @ffprobe-installer), or set VOICE_FFMPEG_PATH and VOICE_FFPROBE_PATH`,
          ),
        );
      else reject(new DescribeError('DESCRIBE_FFMPEG_FAILED', `${cmd} failed to start: ${e.message}`));
    });
    child.on('close', (code) => {
      if (signal.aborted) return;
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new DescribeError(
            'DESCRIBE_FFMPEG_FAILED',
            `${cmd} exited with ${code}: ${err.trim().slice(0, 300)}`,
          ),
        );
    });
  });
}
