import type { AnalysedKind } from '#shared/media/job';
import { describeImageAnalyser, describeVideoAnalyser, explainDocumentAnalyser } from '../describe/index.ts';
import { transcribeAnalyser } from '../stt/index.ts';
import { ocrAnalyser } from './ocr.ts';
import type { Analyser } from './types.ts';

/**
 * Which analyses run for each kind (docs/media.md, "Pipeline"), side by side. A document is
 * explained only when it is a PDF (the analyser refuses others with a reason).
 */
export const ANALYSERS: Record<AnalysedKind, Array<[name: string, run: Analyser]>> = {
  image: [
    ['ocr', ocrAnalyser],
    ['describeImage', describeImageAnalyser],
  ],
  audio: [['transcribe', transcribeAnalyser]],
  voice: [['transcribe', transcribeAnalyser]],
  video: [['describeVideo', describeVideoAnalyser]],
  document: [['explainDocument', explainDocumentAnalyser]],
};
