import {
  type AiContentBlock,
  type AiTier,
  type ModelChain,
  ModelUnavailableError,
  type TokenUsage,
} from '#shared/ai/chain';
import type { MessageAnalysis } from '#shared/messages/analysis';
import { must } from '#shared/must';
import { DescribeError } from './errors.ts';
import { checkModelImage, checkPdf, DESCRIBE_LIMITS, type DescribeLimits } from './limits.ts';
import { captionLine, DOCUMENT_PROMPT, IMAGE_PROMPT, VIDEO_PROMPT } from './prompts.ts';
import {
  AUDIO_TRACK_MIMETYPE,
  audioTrack,
  type FfmpegPaths,
  keyframes,
  probeVideo,
  withTempFile,
} from './video.ts';

/** What the describers read of a media message (a subset of the analysers' `MediaInput`). */
export interface DescribeInput {
  tenantId: string;
  sessionId: string;
  messageId: string;
  mimetype: string;
  fileName?: string;
  caption?: string;
  bytes: Uint8Array;
}

export interface ModelCall {
  usage: TokenUsage;
  tier: AiTier;
  keyIndex: number;
}

/** `transcribe` of functions/media/stt (docs/media.md, "Voice notes"). */
export type TranscribeFn = (
  bytes: Uint8Array,
  mimetype: string,
  opts: { lang?: string; signal: AbortSignal },
) => Promise<{ text: string; confidence: number | null; provider: string; language?: string }>;

export interface DescribeDeps {
  chain: () => ModelChain;
  transcribe: TranscribeFn;
  ffmpeg: FfmpegPaths;
  limits?: DescribeLimits;
}

/** Why a field is null: logged by the analyser, never sent to a client. */
export interface DescribeFailure {
  field: keyof MessageAnalysis;
  code: string;
  message: string;
}

export interface DescribeOutcome {
  analysis: Partial<MessageAnalysis>;
  modelCalls: ModelCall[];
  transcribed?: boolean;
  failures: DescribeFailure[];
}

const MAX_TOKENS = { image: 300, document: 600, video: 400 } as const;

export function describers(deps: DescribeDeps) {
  const limits = deps.limits ?? DESCRIBE_LIMITS;

  /** One model turn; its usage is recorded even if the caller then fails. */
  async function ask(
    input: DescribeInput,
    persona: string,
    content: AiContentBlock[],
    maxTokens: number,
    calls: ModelCall[],
    signal: AbortSignal,
  ): Promise<string> {
    const pending = deps.chain().reply({
      tenantId: input.tenantId,
      sessionId: input.sessionId,
      system: { persona },
      turns: [{ role: 'user', text: '', content }],
      maxTokens,
    });
    let r: Awaited<typeof pending>;
    try {
      r = await untilAborted(pending, signal);
    } catch (err) {
      if (err instanceof ModelUnavailableError)
        throw new DescribeError('DESCRIBE_MODEL_UNAVAILABLE', err.message);
      throw err;
    }
    calls.push({ usage: r.usage, tier: r.tier, keyIndex: r.keyIndex });
    return r.text;
  }

  async function image(input: DescribeInput, { signal }: { signal: AbortSignal }): Promise<DescribeOutcome> {
    const calls: ModelCall[] = [];
    try {
      const mediaType = checkModelImage(input.bytes, limits);
      const text = await ask(
        input,
        IMAGE_PROMPT,
        [
          { type: 'image', mediaType, data: base64(input.bytes) },
          { type: 'text', text: `${captionLine(input.caption)}\nDescribe this image.` },
        ],
        MAX_TOKENS.image,
        calls,
        signal,
      );
      return { analysis: { imageDescription: text }, modelCalls: calls, failures: [] };
    } catch (err) {
      return {
        analysis: { imageDescription: null },
        modelCalls: calls,
        failures: [failure('imageDescription', err)],
      };
    }
  }

  async function document(
    input: DescribeInput,
    { signal }: { signal: AbortSignal },
  ): Promise<DescribeOutcome> {
    const calls: ModelCall[] = [];
    try {
      if (must(input.mimetype.split(';')[0], 'a media type').trim().toLowerCase() !== 'application/pdf')
        throw new DescribeError(
          'DESCRIBE_UNSUPPORTED',
          `only PDF documents are explained, not ${input.mimetype}`,
        );
      const { pages } = checkPdf(input.bytes, limits);
      const name = input.fileName ? `The file is named «${input.fileName}». ` : '';
      const text = await ask(
        input,
        DOCUMENT_PROMPT,
        [
          { type: 'document', mediaType: 'application/pdf', data: base64(input.bytes) },
          {
            type: 'text',
            text: `${name}${pages ? `It has ${pages} page(s). ` : ''}${captionLine(input.caption)}\nExplain this document.`,
          },
        ],
        MAX_TOKENS.document,
        calls,
        signal,
      );
      return { analysis: { documentExplanation: text }, modelCalls: calls, failures: [] };
    } catch (err) {
      return {
        analysis: { documentExplanation: null },
        modelCalls: calls,
        failures: [failure('documentExplanation', err)],
      };
    }
  }

  /** Keyframes and the sound's transcript (in parallel), then one model turn with both. */
  async function video(input: DescribeInput, { signal }: { signal: AbortSignal }): Promise<DescribeOutcome> {
    const out: DescribeOutcome = {
      analysis: { videoDescription: null, transcription: null, confidence: null },
      modelCalls: [],
      failures: [],
    };
    try {
      if (input.bytes.byteLength > limits.videoMaxBytes)
        throw new DescribeError(
          'DESCRIBE_TOO_LARGE',
          `the video is ${input.bytes.byteLength} bytes; at most ${limits.videoMaxBytes} are described`,
        );
      await withTempFile(input.bytes, async (file) => {
        const probe = await probeVideo(deps.ffmpeg, file, signal);
        if (probe.durationS > limits.videoMaxSeconds)
          throw new DescribeError(
            'DESCRIBE_TOO_LARGE',
            `the video lasts ${Math.round(probe.durationS)} s; at most ${limits.videoMaxSeconds} s are described`,
          );
        const [frames, speech] = await Promise.all([
          probe.hasVideo
            ? keyframes(
                deps.ffmpeg,
                file,
                probe.durationS,
                limits.videoFrames,
                limits.frameWidth,
                signal,
              ).catch((err) => {
                out.failures.push(failure('videoDescription', err));
                return [];
              })
            : [],
          probe.hasAudio ? transcribeTrack(file, signal, out) : undefined,
        ]);
        if (!probe.hasVideo) throw new DescribeError('DESCRIBE_UNSUPPORTED', 'the file has no video stream');
        if (!frames.length) return;
        const content: AiContentBlock[] = frames.flatMap(({ atS, jpeg }): AiContentBlock[] => [
          { type: 'text', text: `Frame at ${atS} s:` },
          { type: 'image', mediaType: 'image/jpeg', data: jpeg.toString('base64') },
        ]);
        const heard = speech?.text.trim()
          ? `Transcript of the sound: «${speech.text.trim()}»`
          : probe.hasAudio
            ? 'No speech was transcribed from the sound.'
            : 'The video has no sound.';
        content.push({
          type: 'text',
          text: `The video lasts ${Math.round(probe.durationS)} s. ${heard}\n${captionLine(input.caption)}\nDescribe this video.`,
        });
        out.analysis.videoDescription = await ask(
          input,
          VIDEO_PROMPT,
          content,
          MAX_TOKENS.video,
          out.modelCalls,
          signal,
        );
      });
    } catch (err) {
      out.failures.push(failure('videoDescription', err));
    }
    return out;
  }

  async function transcribeTrack(file: string, signal: AbortSignal, out: DescribeOutcome) {
    try {
      const audio = await audioTrack(deps.ffmpeg, file, signal);
      const r = await deps.transcribe(audio, AUDIO_TRACK_MIMETYPE, { signal });
      out.analysis.transcription = r.text;
      out.analysis.confidence = r.confidence;
      out.transcribed = true;
      return r;
    } catch (err) {
      out.failures.push(failure('transcription', err));
      return undefined;
    }
  }

  return { image, document, video };
}

function failure(field: keyof MessageAnalysis, err: unknown): DescribeFailure {
  const e = err as { code?: unknown; message?: unknown };
  const code =
    err instanceof DescribeError || (typeof e?.code === 'string' && /^[A-Z_]+$/.test(e.code))
      ? String(e.code)
      : 'DESCRIBE_FAILED';
  return { field, code, message: String(e?.message ?? err).slice(0, 500) };
}

const base64 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

/** The chain takes no signal of its own (each hop has its own timeout); the analysis stops waiting. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  const cutOff = () => new DescribeError('DESCRIBE_TIMEOUT', 'the analysis was cut off');
  if (signal.aborted) return Promise.reject(cutOff());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cutOff());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
