import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { toVoiceNote } from './voice-note.ts';

/** One second of a tone, encoded by ffmpeg with the given OGG codec. */
function ogg(codec: 'libvorbis' | 'libopus'): Uint8Array {
  const r = spawnSync('ffmpeg', [
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
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  return new Uint8Array(r.stdout);
}

const codecOf = (b: Uint8Array) =>
  spawnSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', '-i', 'pipe:0'],
    {
      input: Buffer.from(b),
    },
  )
    .stdout.toString()
    .trim();

describe('voice notes', () => {
  it('passes OGG/Opus through untouched', async () => {
    const opus = ogg('libopus');
    expect(await toVoiceNote(opus)).toBe(opus);
  });

  it('transcodes OGG/Vorbis to Opus: Vorbis does not play as a voice note', async () => {
    const vorbis = ogg('libvorbis');
    expect(codecOf(vorbis)).toBe('vorbis');
    const out = await toVoiceNote(vorbis);
    expect(out).not.toBe(vorbis);
    expect(codecOf(out)).toBe('opus');
  });
});
