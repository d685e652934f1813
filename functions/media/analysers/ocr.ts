import { env } from '#shared/config/env';
import { recognise } from '../ocr/index.ts';
import type { Analyser } from './types.ts';

/** The text in an image (`ocrText`) and tesseract's confidence (0–100), in MEDIA_OCR_LANGS. */
export const ocrAnalyser: Analyser = async (input, { signal }) => {
  const langs = env()
    .MEDIA_OCR_LANGS.split(',')
    .map((l) => l.trim())
    .filter(Boolean);
  signal.throwIfAborted();
  const r = await recognise(Buffer.from(input.bytes), langs);
  return { analysis: { ocrText: r.text || null, confidence: r.confidence } };
};
