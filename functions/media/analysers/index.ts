import type { AnalysedKind } from '#shared/media/job';
import { describeImageAnalyser, describeVideoAnalyser, explainDocumentAnalyser } from '../describe/index.ts';
import { ocrAnalyser } from './ocr.ts';
import type { Analyser } from './types.ts';

/** An analysis that this build cannot make: its fields stay null and the reason is logged. */
export class AnalyserUnavailableError extends Error {
  readonly code = 'ANALYSER_UNAVAILABLE';
}

/** Speech to text is not part of this build: a voice note is published without a transcription. */
const transcribeUnavailable: Analyser = async () => {
  throw new AnalyserUnavailableError('speech to text is not available in this build (docs/media.md)');
};

/**
 * Which analyses run for each kind (docs/media.md, "Pipeline"), side by side. A document is
 * explained only when it is a PDF (the analyser refuses others with a reason).
 */
export const ANALYSERS: Record<AnalysedKind, Array<[name: string, run: Analyser]>> = {
  image: [
    ['ocr', ocrAnalyser],
    ['describeImage', describeImageAnalyser],
  ],
  audio: [['transcribe', transcribeUnavailable]],
  voice: [['transcribe', transcribeUnavailable]],
  video: [['describeVideo', describeVideoAnalyser]],
  document: [['explainDocument', explainDocumentAnalyser]],
};
