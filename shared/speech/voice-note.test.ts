import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { oggTone } from '../../tests/support/tone.ts';
import { ffprobePath } from '../config/binaries.ts';
import { toVoiceNote } from './voice-note.ts';

/** One second of a tone, encoded by ffmpeg with the given OGG codec. */
const ogg = (codec: 'libvorbis' | 'libopus') => new Uint8Array(oggTone(codec));

const codecOf = (b: Uint8Array) =>
  spawnSync(
    ffprobePath(),
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
