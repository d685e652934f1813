import { HOST_MOUNTS } from '#shared/host/paths';
import { corsMiddleware } from '#shared/http/cors';
import { healthRoutes } from '#shared/http/health';
import { serviceApp } from '#shared/http/service-app';
import { ttsRoutes } from '#shared/speech/routes';
import { extractionStreamRoutes } from '#shared/stream/extraction';
import { streamRoutes } from '#shared/stream/routes';

/** What a connection host serves over HTTP (behind the load balancer): health, the live streams, speech. */
export function hostApp() {
  const app = serviceApp();
  app.use('*', corsMiddleware());
  app.route(HOST_MOUNTS.health, healthRoutes());
  app.route(HOST_MOUNTS.portalStream, streamRoutes());
  app.route(HOST_MOUNTS.extractionStream, extractionStreamRoutes());
  // Speech synthesis runs where espeak-ng and ffmpeg are: the host image.
  app.route(HOST_MOUNTS.speech, ttsRoutes());
  return app;
}
