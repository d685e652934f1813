/**
 * What the connection hosts serve over HTTP, in one place. The host's app (connection-host/http.ts)
 * and the API app (functions/api/app.ts, for local mode) mount the same routers under these
 * prefixes; the distribution and the load balancer send the public paths to the hosts
 * (infra/edge.ts, infra/host.ts); the API function answers them with an error naming the public
 * address (functions/api/handler.ts). A path changed in one of those and not the others sends
 * clients to a process that does not serve it.
 */
export const HOST_MOUNTS = {
  health: '/health',
  /** The tenant stream: `/{portal_id}/stream` (shared/stream/routes.ts). */
  portalStream: '/api/public/portal',
  /** The extraction stream: `/extracted-stream` (shared/stream/extraction.ts). */
  extractionStream: '/api/v1/chatbot',
  /** Speech synthesis: `/tts` (shared/speech/routes.ts); espeak-ng and ffmpeg are in the host image. */
  speech: '/api/v1',
} as const;

/**
 * The paths the public reaches the hosts at, as CloudFront and load balancer path patterns (`*` is
 * one path segment here): the two long-lived SSE streams and speech synthesis.
 */
export const HOST_PATHS = [
  `${HOST_MOUNTS.portalStream}/*/stream`,
  `${HOST_MOUNTS.extractionStream}/extracted-stream`,
  `${HOST_MOUNTS.speech}/tts`,
];

/** What the load balancer asks each host (liveness: calls no dependency). */
export const HOST_LIVENESS_PATH = `${HOST_MOUNTS.health}/live`;

const patterns = HOST_PATHS.map(
  (p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`),
);

/** Whether a request path is one the hosts serve for the public (`HOST_PATHS`). */
export const servedByHost = (path: string): boolean => patterns.some((p) => p.test(path));
