import { env } from '#shared/config/env';
import type { Analyser } from '../analysers/types.ts';

/**
 * Speech to text (docs/media.md, "Speech to text"): providers tried in order, each with its own time
 * limit, the next one when one fails: an OpenAI-compatible `/audio/transcriptions` endpoint
 * (STT_BASE_URL), then Sarvam (SARVAM_API_KEY; Indian languages, Malayalam among them).
 */
export const STT_TIMEOUT_MS = 30_000;
export const STT_MAX_BYTES = 25 * 1024 * 1024;

export class SttError extends Error {
  constructor(
    readonly code: 'STT_NOT_CONFIGURED' | 'STT_FAILED' | 'STT_TOO_LARGE',
    message: string,
  ) {
    super(message);
  }
}

export interface Transcript {
  text: string;
  /** 0–100, or null when the provider gives none. */
  confidence: number | null;
  provider: string;
  language?: string;
}

interface Provider {
  name: string;
  transcribe(bytes: Uint8Array, mimetype: string, signal: AbortSignal): Promise<Omit<Transcript, 'provider'>>;
}

const extensionOf = (mimetype: string) =>
  /ogg|opus/.test(mimetype)
    ? 'ogg'
    : /mpeg|mp3/.test(mimetype)
      ? 'mp3'
      : /wav/.test(mimetype)
        ? 'wav'
        : /mp4|m4a|aac/.test(mimetype)
          ? 'm4a'
          : 'bin';

function form(bytes: Uint8Array, mimetype: string, fields: Record<string, string>): FormData {
  const f = new FormData();
  f.append('file', new Blob([Buffer.from(bytes)], { type: mimetype }), `audio.${extensionOf(mimetype)}`);
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function post(url: string, body: FormData, headers: Record<string, string>, signal: AbortSignal) {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers,
    signal: AbortSignal.any([signal, AbortSignal.timeout(STT_TIMEOUT_MS)]),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}${text ? `: ${text.slice(0, 120)}` : ''}`);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error('the answer is not JSON');
  }
}

/** `POST {base}/audio/transcriptions` (multipart `file`, `model`), `verbose_json` for a confidence. */
function openAiCompatible(baseUrl: string, apiKey: string | undefined, model: string): Provider {
  return {
    name: 'openai',
    async transcribe(bytes, mimetype, signal) {
      const j = await post(
        `${baseUrl.replace(/\/+$/, '')}/audio/transcriptions`,
        form(bytes, mimetype, { model, response_format: 'verbose_json' }),
        apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        signal,
      );
      if (typeof j.text !== 'string') throw new Error('the answer has no text');
      const segments = Array.isArray(j.segments) ? (j.segments as Array<{ avg_logprob?: unknown }>) : [];
      const probs = segments.flatMap((s) =>
        typeof s.avg_logprob === 'number' ? [Math.exp(s.avg_logprob)] : [],
      );
      const confidence = probs.length
        ? Math.round((100 * probs.reduce((a, b) => a + b, 0)) / probs.length)
        : null;
      return {
        text: j.text.trim(),
        confidence,
        language: typeof j.language === 'string' ? j.language : undefined,
      };
    },
  };
}

/** Sarvam `POST {base}/speech-to-text` (multipart `file`, `model`, `language_code`), `api-subscription-key`. */
function sarvam(baseUrl: string, apiKey: string, model: string): Provider {
  return {
    name: 'sarvam',
    async transcribe(bytes, mimetype, signal) {
      const j = await post(
        `${baseUrl.replace(/\/+$/, '')}/speech-to-text`,
        form(bytes, mimetype, { model, language_code: 'unknown' }),
        { 'api-subscription-key': apiKey },
        signal,
      );
      if (typeof j.transcript !== 'string') throw new Error('the answer has no transcript');
      return {
        text: j.transcript.trim(),
        confidence: null,
        language: typeof j.language_code === 'string' ? j.language_code : undefined,
      };
    },
  };
}

/** The configured providers, in the order they are tried. */
export function sttProviders(): Provider[] {
  const e = env();
  const out: Provider[] = [];
  if (e.STT_BASE_URL) out.push(openAiCompatible(e.STT_BASE_URL, e.STT_API_KEY, e.STT_MODEL));
  if (e.SARVAM_API_KEY) out.push(sarvam(e.SARVAM_BASE_URL, e.SARVAM_API_KEY, e.SARVAM_STT_MODEL));
  return out;
}

/** The audio's words, from the first provider that answers; every failure's reason when none does. */
export async function transcribe(
  bytes: Uint8Array,
  mimetype: string,
  opts: { lang?: string; signal: AbortSignal },
  providers: Provider[] = sttProviders(),
): Promise<Transcript> {
  if (!providers.length) throw new SttError('STT_NOT_CONFIGURED', 'no speech-to-text provider is configured');
  if (bytes.byteLength > STT_MAX_BYTES)
    throw new SttError('STT_TOO_LARGE', `audio over ${STT_MAX_BYTES} bytes is not transcribed`);
  const reasons: string[] = [];
  for (const p of providers) {
    opts.signal.throwIfAborted();
    try {
      return { ...(await p.transcribe(bytes, mimetype, opts.signal)), provider: p.name };
    } catch (err) {
      // Keys never reach this text: they travel in headers only.
      reasons.push(`${p.name}: ${(err as Error).message}`);
    }
  }
  throw new SttError('STT_FAILED', `every speech-to-text provider failed (${reasons.join('; ')})`);
}

/** Audio and voice notes: `transcription` and its `confidence` (0–100). */
export const transcribeAnalyser: Analyser = async (input, { signal }) => {
  const t = await transcribe(input.bytes, input.mimetype, { signal });
  return { analysis: { transcription: t.text || null, confidence: t.confidence }, transcribed: true };
};
