/** Media analysis results; every field is null until an analyser fills it in. */
export interface MessageAnalysis {
  imageDescription?: string | null;
  ocrText?: string | null;
  documentExplanation?: string | null;
  videoDescription?: string | null;
  transcription?: string | null;
  confidence?: number | string | null;
}
