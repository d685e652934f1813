/**
 * Why an image, document or video got no description. The analysers store `null` for the field and
 * log `code`; none of these reaches an HTTP client, so they sit outside the API's error tree.
 */
export type DescribeErrorCode =
  | 'DESCRIBE_TOO_LARGE'
  | 'DESCRIBE_UNSUPPORTED'
  | 'DESCRIBE_MODEL_UNAVAILABLE'
  | 'DESCRIBE_TIMEOUT'
  | 'DESCRIBE_FFMPEG_FAILED'
  | 'DESCRIBE_FAILED';

export class DescribeError extends Error {
  constructor(
    readonly code: DescribeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DescribeError';
  }
}
