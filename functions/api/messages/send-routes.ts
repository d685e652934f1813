import { createRoute, z } from '@hono/zod-openapi';
import { extendTakeover } from '#shared/chatbot/takeover';
import { router } from '#shared/http/context';
import { bearer, ErrorSchema, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { requireReadySession } from '../sessions/service.ts';
import { IdempotencyHeaders, idempotent } from './idempotency.ts';
import { renderStoredTemplate } from './render-template.ts';
import { contentOf, SendBody } from './send-schema.ts';
import { acceptSend } from './send-service.ts';

export const Accepted = z
  .object({
    success: z.literal(true),
    messageId: z.string(),
    status: z.literal('queued'),
    sessionId: z.string(),
    to: z.string(),
  })
  .openapi('SendAccepted');

export const sendErrorResponses = {
  ...errorResponses,
  413: json(ErrorSchema, 'Upload too large'),
  422: json(ErrorSchema, 'Session not READY'),
  429: json(ErrorSchema, 'Monthly quota used up (see Retry-After)'),
  503: json(ErrorSchema, 'Could not be queued'),
} as const;

const sendRoute = createRoute({
  method: 'post',
  path: '/send',
  tags: ['messages'],
  security: bearer,
  summary:
    'Send a text, media, voice, template, buttons, location, contact or poll message (accepted asynchronously)',
  request: { headers: IdempotencyHeaders, body: { content: { 'application/json': { schema: SendBody } } } },
  responses: { 202: json(Accepted, 'Accepted and queued'), ...sendErrorResponses },
});

export function sendRoutes() {
  const r = router();
  r.use('/send', requireAuth);
  r.openapi(sendRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const body = c.req.valid('json');
    const answer = await idempotent(c, body, async () => {
      // Both lookups at once; a sender problem is reported before a template problem.
      const [sender, rendered] = await Promise.allSettled([
        requireReadySession(tenant, body.sessionId),
        body.type === 'template'
          ? renderStoredTemplate(tenant, (body.text ?? '').trim(), body.params ?? [])
          : Promise.resolve(contentOf(body)),
      ]);
      if (sender.status === 'rejected') throw sender.reason;
      if (rendered.status === 'rejected') throw rendered.reason;
      const session = sender.value;
      const content = rendered.value;
      const accepted = await acceptSend({ session, to: body.to, content, requestId: c.get('requestId') });
      // After the send was accepted: a refused send takes nothing over.
      if (body.takeover) await extendTakeover(tenant, session, body.to, 'api', Date.now());
      return { success: true as const, ...accepted };
    });
    return c.json(answer, 202);
  });
  return r;
}
