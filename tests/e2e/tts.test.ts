import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ffmpegPath, ffprobePath } from '#shared/config/binaries';
import { baseUrl, newTenant } from '../support/client.ts';

/** `POST /api/v1/tts` with the default provider (espeak-ng → ffmpeg), checked with ffprobe. */
const dir = mkdtempSync(join(tmpdir(), 'tts-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(bytes: Buffer): { codec: string; channels: number; durationS: number } {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.ogg`);
  writeFileSync(file, bytes);
  const out = JSON.parse(
    execFileSync(ffprobePath(), [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_streams',
      '-show_format',
      file,
    ]).toString(),
  );
  const a = out.streams[0];
  return { codec: a.codec_name, channels: a.channels, durationS: Number(out.format.duration) };
}

/** The decoded samples (16-bit mono 48 kHz). */
function pcm(bytes: Buffer): Buffer {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.ogg`);
  writeFileSync(file, bytes);
  return execFileSync(
    ffmpegPath(),
    ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '48000', 'pipe:1'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}

const tts = (token: string, body: unknown, accept = 'audio/ogg') =>
  fetch(`${baseUrl()}/api/v1/tts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });

describe('speech synthesis', () => {
  it('answers OGG/Opus that ffprobe reads as Opus, in English and in Malayalam', async () => {
    const t = await newTenant();
    for (const [lang, text] of [
      ['en', 'Your appointment is at ten tomorrow morning.'],
      ['ml', 'നിങ്ങളുടെ അപ്പോയിന്റ്മെന്റ് നാളെ രാവിലെ പത്തിനാണ്.'],
    ] as const) {
      const res = await tts(t.token, { text, lang });
      expect(res.status, lang).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^audio\/ogg/);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
      const p = probe(bytes);
      expect(p).toMatchObject({ codec: 'opus', channels: 1 });
      expect(p.durationS).toBeGreaterThan(1);
    }
  });

  it('with Accept: application/json answers a URL that serves the same audio', async () => {
    const t = await newTenant();
    const body = { text: 'Thank you for your payment.', lang: 'en' };
    const direct = Buffer.from(await (await tts(t.token, body)).arrayBuffer());
    const res = await tts(t.token, body, 'application/json');
    expect(res.status).toBe(200);
    const j = (await res.json()) as { success: boolean; url: string; mimetype: string; durationMs: number };
    expect(j).toMatchObject({
      success: true,
      mimetype: 'audio/ogg; codecs=opus',
      url: expect.stringMatching(/^http/),
    });
    expect(j.durationMs).toBeGreaterThan(500);
    const fetched = Buffer.from(await (await fetch(j.url)).arrayBuffer());
    expect(probe(fetched).codec).toBe('opus');
    // The same speech: the Ogg container's serial number is random, the decoded sound is not.
    expect(pcm(fetched).equals(pcm(direct))).toBe(true);
  });

  it('refuses bad input with a 400 naming the field, and requires a tenant credential', async () => {
    const t = await newTenant();
    const cases: Array<[unknown, string]> = [
      [{}, 'text'],
      [{ text: 'hi', lang: 'xx' }, 'lang'],
      [{ text: 'hi', provider: 'polly' }, 'provider'],
      [{ text: 'x'.repeat(2001) }, 'text'],
    ];
    for (const [body, field] of cases) {
      const res = await tts(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
    const anon = await fetch(`${baseUrl()}/api/v1/tts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(anon.status).toBe(401);
  });

  it('provider openai: the OpenAI-compatible speech endpoint answers Opus, relayed as it is', async () => {
    const t = await newTenant();
    const text = `Your table is ready ${Date.now()}`;
    const res = await tts(t.token, { text, provider: 'openai', speaker: 'nova' });
    expect(res.status).toBe(200);
    const p = probe(Buffer.from(await res.arrayBuffer()));
    expect(p.codec).toBe('opus');
    expect(Number(res.headers.get('x-duration-ms'))).toBeGreaterThan(900);
    const seen = (await (await fetch(`${inject('fakeSpeechUrl')}/requests`)).json()) as Array<{
      input?: string;
    }>;
    expect(seen.some((r) => r.input === text)).toBe(true);
  });
});

describe('speech synthesis never reads its text as options', () => {
  // A marker file the service could read: a long text, so that speaking it would last minutes.
  const marker = join(dir, 'marker.txt');
  writeFileSync(marker, 'secret marker words '.repeat(400));
  const written = join(dir, 'written.wav');

  it('speaks option-shaped text as words: no file read or written, no oracle for which paths exist', async () => {
    const t = await newTenant();
    for (const text of [
      `-f${marker}`,
      `-f ${marker}`,
      `--path=${dir}`,
      `-w${written}`,
      `-f${join(dir, 'missing.txt')}`,
      '--version',
      '-v',
      '-',
    ]) {
      const res = await tts(t.token, { text });
      expect(res.status, text).toBe(200);
      const p = probe(Buffer.from(await res.arrayBuffer()));
      // The words themselves take seconds; the marker file read aloud would take minutes.
      expect(p.durationS, text).toBeLessThan(15);
    }
    expect(() => execFileSync('test', ['-e', written])).toThrow();
  });

  it('refuses control characters in text and a speaker that is not a variant name', async () => {
    const t = await newTenant();
    for (const [body, field] of [
      [{ text: 'hello\u0000world' }, 'text'],
      [{ text: 'bell\u0007' }, 'text'],
      [{ text: 'hi', speaker: '../../etc/passwd' }, 'speaker'],
      [{ text: 'hi', speaker: '-f' }, 'speaker'],
    ] as const) {
      const res = await tts(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
  });
});
