import { createHash } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createRoute, z } from '@hono/zod-openapi';
import { bearerOrApiKey } from '../auth/host-auth.ts';
import { s3Client } from '../aws/clients.ts';
import { names } from '../aws/names.ts';
import { router } from '../http/context.ts';
import { bearerOrQueryKey, errorResponses, json } from '../http/schemas.ts';
import { LINK_TTL_SECONDS, linkTo } from '../links/links.ts';
import { objectKey } from '../store/object-keys.ts';
import { SPEAKER_PATTERN, synthesise, TTS_MAX_CHARS } from './synthesise.ts';

/** How long the JSON answer's URL (a link of ours, shared/links/links.ts) serves the audio. */
export const TTS_URL_SECONDS = LINK_TTL_SECONDS.tts;

const Body = z.object({
  text: z.string().min(1).max(TTS_MAX_CHARS).openapi({ example: 'Your appointment is at 10 am tomorrow.' }),
  provider: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: '`local` (espeak-ng, offline; the default) or `openai` (OpenAI-compatible)' }),
  model: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: 'accepted for other providers; `local` has one' }),
  speaker: z
    .string()
    .regex(SPEAKER_PATTERN, 'a voice variant name such as m3 or f2')
    .optional()
    .openapi({ description: 'an espeak-ng voice variant (`m1`…`m7`, `f1`…`f5`)' }),
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'a language code such as en, ml or ml-IN')
    .optional()
    .openapi({ description: 'BCP 47; `en` when absent', example: 'ml' }),
});

/**
 * `POST /tts` (mounted at `/api/v1`): the audio itself (`audio/ogg`, Opus), or with
 * `Accept: application/json` `{success, url, mimetype, durationMs}`, the URL serving the same bytes
 * from the media bucket for an hour. Served by the connection host in the cloud (it has espeak-ng
 * and ffmpeg); the API function redirects there.
 */
export function ttsRoutes() {
  const r = router();
  r.openapi(
    createRoute({
      method: 'post',
      path: '/tts',
      tags: ['media'],
      // bearerOrApiKey: a token or an API key as the Bearer credential, or either in `key`.
      security: bearerOrQueryKey,
      middleware: [bearerOrApiKey] as const,
      summary:
        'Speech synthesis: text to an OGG/Opus voice note (the audio, or a URL with Accept: application/json)',
      request: { body: { content: { 'application/json': { schema: Body } } } },
      responses: {
        200: {
          description: 'The audio, or with Accept: application/json its URL',
          content: {
            'audio/ogg': { schema: z.string().openapi({ format: 'binary' }) },
            ...json(
              z.object({
                success: z.literal(true),
                url: z.string(),
                mimetype: z.string(),
                durationMs: z.number().int(),
              }),
            ).content,
          },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const speech = await synthesise(body);
      if (!/application\/json/i.test(c.req.header('accept') ?? '')) {
        return c.body(Buffer.from(speech.bytes), 200, {
          'content-type': speech.mimetype,
          'x-duration-ms': String(speech.durationMs),
        }) as never;
      }
      const tenant = c.get('auth').tenant;
      const hash = createHash('sha256').update(speech.bytes).digest('hex').slice(0, 32);
      const key = objectKey('speech', tenant, `${hash}.ogg`);
      const Bucket = names.mediaBucket();
      await s3Client().send(
        new PutObjectCommand({ Bucket, Key: key, Body: speech.bytes, ContentType: speech.mimetype }),
      );
      const url = await linkTo(tenant, key, 'tts');
      return c.json(
        { success: true as const, url, mimetype: speech.mimetype, durationMs: speech.durationMs },
        200,
      );
    },
  );
  return r;
}
