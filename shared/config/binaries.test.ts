import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ffmpegPath, ffprobePath } from './binaries.ts';
import { resetEnvCache } from './env.ts';

const saved = { ffmpeg: process.env.VOICE_FFMPEG_PATH, ffprobe: process.env.VOICE_FFPROBE_PATH };
afterEach(() => {
  for (const [k, v] of [
    ['VOICE_FFMPEG_PATH', saved.ffmpeg],
    ['VOICE_FFPROBE_PATH', saved.ffprobe],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnvCache();
});

describe('ffmpeg and ffprobe', () => {
  it('unset: the builds npm installed, with the encoders the service uses', () => {
    delete process.env.VOICE_FFMPEG_PATH;
    delete process.env.VOICE_FFPROBE_PATH;
    resetEnvCache();
    expect(ffmpegPath()).toMatch(/node_modules[\\/]@ffmpeg-installer[\\/][^\\/]+[\\/]ffmpeg(\.exe)?$/);
    expect(ffprobePath()).toMatch(/node_modules[\\/]@ffprobe-installer[\\/][^\\/]+[\\/]ffprobe(\.exe)?$/);
    const encoders = execFileSync(ffmpegPath(), ['-hide_banner', '-encoders']).toString();
    // Voice notes are OGG/Opus; test videos are H.264; video frames go to the model as JPEG.
    for (const e of ['libopus', 'libx264', 'mjpeg']) expect(encoders).toContain(` ${e} `);
    expect(execFileSync(ffprobePath(), ['-version']).toString()).toMatch(/^ffprobe version/);
  });

  it("set: the operator's paths, as given", () => {
    process.env.VOICE_FFMPEG_PATH = '/usr/bin/ffmpeg';
    process.env.VOICE_FFPROBE_PATH = '/opt/bin/ffprobe';
    resetEnvCache();
    expect([ffmpegPath(), ffprobePath()]).toEqual(['/usr/bin/ffmpeg', '/opt/bin/ffprobe']);
  });
});
