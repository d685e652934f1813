/**
 * Image, document and video understanding through the model chain (docs/media.md, "Image, document
 * and video understanding"): what the media consumer runs for those kinds. Each analyser catches its
 * own failure: the field is null and the reason code is logged.
 */
import { createModelChain } from '#shared/ai/chain';
import { ffmpegPaths } from '#shared/config/binaries';
import { logger } from '#shared/log/logger';
import type { Analyser, AnalyserResult, MediaInput } from '../analysers/types.ts';
import { type DescribeDeps, type DescribeOutcome, describers, type TranscribeFn } from './describe.ts';
import { DescribeError } from './errors.ts';

export { DescribeError, type DescribeErrorCode } from './errors.ts';
export { DESCRIBE_LIMITS } from './limits.ts';

const log = logger.child({ mod: 'media-describe' });

export interface DescribeAnalysers {
  describeImageAnalyser: Analyser;
  explainDocumentAnalyser: Analyser;
  describeVideoAnalyser: Analyser;
}

/** The analysers with their collaborators; tests give their own chain, binaries or limits. */
export function createDescribeAnalysers(over: Partial<DescribeDeps> = {}): DescribeAnalysers {
  const d = describers({
    chain: over.chain ?? (() => createModelChain()),
    transcribe: over.transcribe ?? sttNotAvailable,
    ffmpeg: over.ffmpeg ?? ffmpegPaths(),
    limits: over.limits,
  });
  const analyser =
    (
      name: string,
      run: (input: MediaInput, opts: { signal: AbortSignal }) => Promise<DescribeOutcome>,
    ): Analyser =>
    async (input, opts) => {
      const out = await run(input, opts);
      for (const f of out.failures) {
        log.warn(
          {
            analyser: name,
            tenantId: input.tenantId,
            sessionId: input.sessionId,
            messageId: input.messageId,
            ...f,
          },
          'media analysis: field left empty',
        );
      }
      const result: AnalyserResult = { analysis: out.analysis, modelCalls: out.modelCalls };
      if (out.transcribed) result.transcribed = true;
      return result;
    };
  return {
    describeImageAnalyser: analyser('describeImage', d.image),
    explainDocumentAnalyser: analyser('explainDocument', d.document),
    describeVideoAnalyser: analyser('describeVideo', d.video),
  };
}

const defaults = lazy(() => createDescribeAnalysers());

export const describeImageAnalyser: Analyser = (input, opts) => defaults().describeImageAnalyser(input, opts);
export const explainDocumentAnalyser: Analyser = (input, opts) =>
  defaults().explainDocumentAnalyser(input, opts);
export const describeVideoAnalyser: Analyser = (input, opts) => defaults().describeVideoAnalyser(input, opts);

function lazy<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    v ??= make();
    return v;
  };
}

/** Until functions/media/stt is wired in, a video's sound is not transcribed (the reason is logged). */
const sttNotAvailable: TranscribeFn = async () => {
  throw new DescribeError('DESCRIBE_FAILED', 'speech-to-text is not available to the video analyser yet');
};
