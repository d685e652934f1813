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
  app.route('/health', healthRoutes());
  app.route('/api/public/portal', streamRoutes());
  app.route('/api/v1/chatbot', extractionStreamRoutes());
  // Speech synthesis runs where espeak-ng and ffmpeg are: the host image.
  app.route('/api/v1', ttsRoutes());
  return app;
}
