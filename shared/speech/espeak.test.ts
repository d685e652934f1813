import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { espeakWav } from './espeak.ts';

/** Seconds of sound in a 16-bit mono PCM WAV, from its header's byte rate. */
const seconds = (wav: Uint8Array) => {
  const b = Buffer.from(wav);
  expect(b.toString('latin1', 0, 4)).toBe('RIFF');
  expect(b.toString('latin1', 8, 12)).toBe('WAVE');
  expect(b.readUInt16LE(22)).toBe(1); // mono
  return (b.length - 44) / b.readUInt32LE(28);
};

describe('eSpeak NG as WebAssembly', () => {
  it('speaks English and Malayalam, with a voice variant', async () => {
    const en = await espeakWav('Your appointment is at ten tomorrow morning.', 'en+f3', 30_000);
    const ml = await espeakWav('നിങ്ങളുടെ അപ്പോയിന്റ്മെന്റ് നാളെ രാവിലെ പത്തിനാണ്.', 'ml', 30_000);
    expect(seconds(en)).toBeGreaterThan(1.5);
    expect(seconds(ml)).toBeGreaterThan(1.5);
  });

  it('speaks option-shaped text as words: its file system holds only the voice data', async () => {
    // Read as an option, `-f/etc/passwd` would say the file (or fail: the program sees no host files).
    const said = await espeakWav('-f/etc/passwd', 'en', 30_000);
    expect(seconds(said)).toBeGreaterThan(0.5);
    expect(seconds(said)).toBeLessThan(5);
  });

  it('answers every request when more arrive than run at once (one per core; the rest wait their turn)', async () => {
    const n = availableParallelism() * 2 + 1;
    const wavs = await Promise.all(
      Array.from({ length: n }, (_, i) => espeakWav(`request ${i}`, 'en', 60_000)),
    );
    for (const w of wavs) expect(seconds(w)).toBeGreaterThan(0.3);
  });

  it('answers a voice it lacks with its own complaint, and gives up after the time bound', async () => {
    await expect(espeakWav('hello', 'xx-nonexistent', 30_000)).rejects.toThrow(/espeak-ng failed/);
    await expect(espeakWav('a long text. '.repeat(150), 'en', 5)).rejects.toThrow(/longer than 5 ms/);
  });
});
