import { env } from '../config/env.ts';
import { ServiceError, ValidationError } from '../http/errors.ts';
import { espeakWav } from './espeak.ts';
import { toVoiceNote } from './voice-note.ts';

/**
 * Speech synthesis (docs/media.md, "Speech synthesis"): text → an OGG/Opus voice note. It runs where
 * ffmpeg is: the connection host (its image installs Debian's) and the local process (npm's build,
 * shared/config/binaries.ts). Providers sit behind one function: `local` (espeak-ng as WebAssembly,
 * espeak.ts; offline, many languages incl.
 * Malayalam; the default) and `openai` (an OpenAI-compatible `/audio/speech` endpoint at
 * STT_BASE_URL with STT_API_KEY, asked for Opus).
 */

export const TTS_MAX_CHARS = 2000;
const TIMEOUT_MS = 30_000;

/** The languages the local voice is asked for: BCP 47 short codes → espeak-ng voices. */
export const LOCAL_VOICES: Record<string, string> = {
  en: 'en',
  'en-in': 'en-029',
  'en-us': 'en-us',
  ml: 'ml',
  hi: 'hi',
  ta: 'ta',
  te: 'te',
  kn: 'kn',
  bn: 'bn',
  mr: 'mr',
  gu: 'gu',
  pa: 'pa',
  ar: 'ar',
  es: 'es',
  fr: 'fr',
  de: 'de',
};

export interface SpeechRequest {
  text: string;
  provider?: string;
  model?: string;
  speaker?: string;
  /** BCP 47 (`en`, `ml`, `ml-IN`); English when absent. */
  lang?: string;
}

export interface Speech {
  bytes: Uint8Array;
  mimetype: 'audio/ogg; codecs=opus';
  durationMs: number;
  provider: string;
}

/** The speech provider failed or is missing (503): a clear answer, never a 500. */
export class SpeechUnavailableError extends ServiceError {
  constructor(message: string) {
    super('UPSTREAM_UNAVAILABLE', message);
  }
}

/** Which espeak-ng voice speaks `lang` (`ml-IN` → `ml`); a 400 naming `lang` for one it lacks. */
export function localVoice(lang = 'en'): string {
  const l = lang.toLowerCase();
  const [primary = l] = l.split('-');
  const voice = LOCAL_VOICES[l] ?? LOCAL_VOICES[primary];
  if (!voice)
    throw new ValidationError(
      `lang: the local voice does not speak "${lang}" (it speaks ${Object.keys(LOCAL_VOICES).join(', ')})`,
      'lang',
    );
  return voice;
}

/**
 * An espeak-ng voice variant (`f3`, `m1`): a bare name it looks up in its own folder. Anything
 * else (a path, an option) is refused, so a variant can never name a file.
 */
export function localVariant(speaker: string): string {
  if (!SPEAKER_PATTERN.test(speaker))
    throw new ValidationError('speaker: a voice variant name such as m3 or f2', 'speaker');
  return speaker;
}

/** A speaker's name, for every provider: letters and digits only. */
export const SPEAKER_PATTERN = /^[a-z0-9]{1,20}$/;

export async function synthesise(req: SpeechRequest): Promise<Speech> {
  const text = req.text.trim();
  if (!text) throw new ValidationError('text: nothing to say', 'text');
  // A NUL (or another C0 control but tab and line breaks) is nothing a voice can say, and would cut the
  // text short in a C program.
  if (hasControlCharacter(text))
    throw new ValidationError('text: control characters are not allowed', 'text');
  if (text.length > TTS_MAX_CHARS)
    throw new ValidationError(`text: at most ${TTS_MAX_CHARS} characters`, 'text');
  const provider = req.provider ?? env().TTS_PROVIDER;
  if (provider === 'openai') return openAiSpeech(text, req);
  if (provider !== 'local')
    throw new ValidationError(`provider: "${provider}" is not offered; use "local" or "openai"`, 'provider');
  const voice = localVoice(req.lang);
  // The text goes in as a file of the program's own, never as an argument: an argument that starts
  // with `-` is an option to espeak-ng (`-f<path>` would read a file aloud).
  const voiceArg = req.speaker ? `${voice}+${localVariant(req.speaker)}` : voice;
  let bytes: Uint8Array;
  let wav: Uint8Array;
  try {
    wav = await espeakWav(text, voiceArg, TIMEOUT_MS);
    bytes = await toVoiceNote(wav);
  } catch (err) {
    throw new SpeechUnavailableError((err as Error).message);
  }
  return { bytes, mimetype: 'audio/ogg; codecs=opus', durationMs: wavDurationMs(wav), provider: 'local' };
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

/** `POST {STT_BASE_URL}/audio/speech` `{model, input, voice, response_format: "opus"}` → OGG/Opus. */
async function openAiSpeech(text: string, req: SpeechRequest): Promise<Speech> {
  const e = env();
  if (!e.STT_BASE_URL)
    throw new SpeechUnavailableError('provider "openai" is not configured (STT_BASE_URL, STT_API_KEY)');
  let res: Response;
  try {
    res = await fetch(`${e.STT_BASE_URL.replace(/\/+$/, '')}/audio/speech`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(e.STT_API_KEY ? { authorization: `Bearer ${e.STT_API_KEY}` } : {}),
      },
      body: JSON.stringify({
        model: req.model ?? 'tts-1',
        input: text,
        voice: req.speaker ?? 'alloy',
        response_format: 'opus',
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new SpeechUnavailableError(`provider "openai" could not be reached: ${(err as Error).message}`);
  }
  if (!res.ok) throw new SpeechUnavailableError(`provider "openai" answered HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (Buffer.from(bytes.subarray(0, 4)).toString('latin1') !== 'OggS')
    throw new SpeechUnavailableError('provider "openai" did not answer OGG/Opus audio');
  return { bytes, mimetype: 'audio/ogg; codecs=opus', durationMs: oggDurationMs(bytes), provider: 'openai' };
}

/** An Ogg/Opus stream's length: the last page's granule position, at 48 kHz. */
function oggDurationMs(bytes: Uint8Array): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const last = b.lastIndexOf('OggS');
  if (last < 0 || last + 14 > b.length) return 0;
  return Math.round(Number(b.readBigUInt64LE(last + 6)) / 48);
}

/** A PCM WAV's length from its header (espeak-ng writes 16-bit mono). */
function wavDurationMs(wav: Uint8Array): number {
  const b = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  if (b.length < 44 || b.toString('latin1', 0, 4) !== 'RIFF') return 0;
  const byteRate = b.readUInt32LE(28);
  // Count the bytes after the header rather than trust its data size.
  return byteRate ? Math.round(((b.length - 44) / byteRate) * 1000) : 0;
}
