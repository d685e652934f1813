/**
 * Why an OCR run gave no text. The media consumer stores `null` for `ocr_text` and logs `code`;
 * none of these ever reaches an HTTP client, so they sit outside the API's error tree.
 */
export type OcrErrorCode =
  | 'OCR_IMAGE_TOO_LARGE'
  | 'OCR_IMAGE_UNSUPPORTED'
  | 'OCR_LANGUAGE_UNSUPPORTED'
  | 'OCR_TIMEOUT'
  | 'OCR_FAILED';

export class OcrError extends Error {
  constructor(
    readonly code: OcrErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OcrError';
  }
}
