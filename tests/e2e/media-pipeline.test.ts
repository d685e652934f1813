import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { names } from '#shared/aws/names';
import { ffmpegPath } from '#shared/config/binaries';
import { sendJson } from '#shared/queue/send';
import { testPdf } from '../../functions/media/describe/test-media.ts';
import { api, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { listenTo } from '../support/listeners.ts';
import { fixtures, type MediaFile, mediaServer } from '../support/media-server.ts';
import type { startReceiver } from '../support/webhook-receiver.ts';

/**
 * Inbound media through the running service (docs/media.md, "Pipeline"): the simulator delivers a
 * message with media, the host stores the bytes, the events consumer stores the message and queues
 * a media job, the media consumer analyses it and publishes it to the webhook and the stream.
 */
let media: Awaited<ReturnType<typeof mediaServer>>;
const closers: Array<() => Promise<unknown> | unknown> = [];

/** A PNG of dark text on white, drawn here, so that its OCR text is known. */
async function textImage(lines: string[]): Promise<MediaFile> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${120 + lines.length * 110}">
    <rect width="100%" height="100%" fill="white"/>
    ${lines.map((l, i) => `<text x="40" y="${120 + i * 110}" font-family="DejaVu Sans, sans-serif" font-size="80" fill="black">${l}</text>`).join('')}
  </svg>`;
  const bytes = await sharp(Buffer.from(svg)).png().toBuffer();
  return { bytes, mimetype: 'image/png', sha256: '' };
}

/** A voice note whose bytes script the fake speech providers (tests/support/fake-speech.ts). */
function voice(script: string): MediaFile {
  const f = fixtures.ogg(512);
  return { ...f, bytes: Buffer.concat([f.bytes, Buffer.from(script, 'utf8')]) };
}

/** A 2-second test-pattern video without sound, made with ffmpeg. */
function testVideo(): MediaFile {
  const dir = mkdtempSync(join(tmpdir(), 'media-e2e-'));
  const file = join(dir, 'clip.mp4');
  execFileSync(ffmpegPath(), [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    file,
  ]);
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return { bytes, mimetype: 'video/mp4', sha256: '' };
}

beforeAll(async () => {
  media = await mediaServer({
    'report.pdf': {
      bytes: testPdf(['Lab report', 'Haemoglobin 13.5 g/dL']),
      mimetype: 'application/pdf',
      sha256: '',
    },
    'clip.mp4': testVideo(),
    'receipt.png': await textImage(['INVOICE 4521', 'TOTAL 980']),
    'said.ogg': voice('SAY:please book me for tomorrow at ten;'),
    'said-ml.ogg': voice('FAIL:openai;SAY:നാളെ പത്തു മണിക്ക് ബുക്ക് ചെയ്യണം;'),
    'unheard.ogg': voice('FAIL:all;'),
  });
});

afterAll(async () => {
  for (const c of closers.splice(0)) await c();
  await media?.close();
});

async function setup() {
  const t = await newTenant();
  const s = await readySession(t.api);
  const { recv: hook, stream } = await listenTo(t, closers);
  return { t, s, hook, stream };
}

const inboundHook = (hook: Awaited<ReturnType<typeof startReceiver>>, id: string) =>
  waitFor(async () => hook.of('message.inbound', id)[0], 90_000, `message.inbound for ${id}`);

describe('media pipeline', () => {
  it('an image of text: its OCR text and a description reach the webhook and the stream, with a working media URL', async () => {
    const { t, s, hook, stream } = await setup();
    const id = await simInbound({
      sessionId: s.sessionId,
      from: '919811600001',
      name: 'Asha',
      type: 'image',
      mediaUrl: media.url('receipt.png'),
      mimetype: 'image/png',
    });

    const delivered = await inboundHook(hook, id);
    const content = delivered.json.content;
    expect(content.ocr_text).toMatch(/INVOICE\s*4521/);
    expect(content.ocr_text).toMatch(/TOTAL\s*980/);
    expect(typeof content.confidence).toBe('number');
    // Described by the model chain (the fake provider answers every request).
    expect(content.image_description).toEqual(expect.any(String));
    expect(content).toMatchObject({
      transcription: null,
      document_explanation: null,
      video_description: null,
    });

    const event = await waitFor(
      async () => stream.events.find((e) => e.json.media?.ocr_text?.includes('4521')),
      20_000,
      'the stream event',
    );
    expect(event.json).toMatchObject({ type: 'image', media: { hasMedia: true, mediaType: 'image' } });
    expect(event.json.media.confidence).toMatch(/%$/);
    const got = await fetch(event.json.media.mediaUrl);
    expect(got.status).toBe(200);
    expect(
      Buffer.from(await got.arrayBuffer())
        .subarray(0, 8)
        .toString('hex'),
    ).toBe('89504e470d0a1a0a');

    // AI telemetry counts one document analysis for it.
    const usage = await t.api.get(`/api/v1/ai/usage/${s.sessionId}`);
    expect(usage.body.usage.docAnalysisCount).toBe(1);

    // The same media job again (a redelivery): no second analysis, no second webhook.
    await sendJson(names.mediaQueue(), { tenantId: t.id, sessionId: s.sessionId, messageId: id });
    const control = await simInbound({ sessionId: s.sessionId, from: '919811600001', text: 'thanks' });
    await inboundHook(hook, control);
    await waitFor(
      async () => {
        const again = await t.api.get(`/api/v1/ai/usage/${s.sessionId}`);
        return again.body.usage.docAnalysisCount === 1 ? again : undefined;
      },
      5_000,
      'usage unchanged',
    );
    expect(hook.of('message.inbound', id)).toHaveLength(1);
  }, 120_000);

  it('a voice note: its transcription and confidence reach the webhook, the stream and the live feed', async () => {
    const { t, s, hook, stream } = await setup();
    const id = await simInbound({
      sessionId: s.sessionId,
      from: '919811600002',
      type: 'voice',
      mediaUrl: media.url('said.ogg'),
      mimetype: 'audio/ogg',
    });
    const delivered = await inboundHook(hook, id);
    // The OpenAI-compatible fake answers two segments with avg_logprob -0.1 and -0.3: (e^-0.1 + e^-0.3) / 2 = 82 %.
    expect(delivered.json.content).toMatchObject({
      transcription: 'please book me for tomorrow at ten',
      confidence: 82,
      ocr_text: null,
    });
    const event = await waitFor(
      async () => stream.events.find((e) => e.json.media?.stt_transcription?.includes('tomorrow')),
      20_000,
      'the stream event',
    );
    expect(event.json.media).toMatchObject({ hasMedia: true, mediaType: 'voice', confidence: '82%' });
    const live = await api().get(`/api/public/portal/${t.portalId}/live-messages?msgType=audio`);
    expect(live.body.messages[0].media).toMatchObject({
      stt_transcription: 'please book me for tomorrow at ten',
      confidence: '82%',
    });
    const usage = await t.api.get(`/api/v1/ai/usage/${s.sessionId}`);
    expect(usage.body.usage.audioTranscribeCount).toBe(1);
  }, 120_000);

  it('a failing speech provider falls back to the next one; all failing still delivers the message with null fields', async () => {
    const { s, hook } = await setup();
    const send = (file: string, from: string) =>
      simInbound({
        sessionId: s.sessionId,
        from,
        type: 'voice',
        mediaUrl: media.url(file),
        mimetype: 'audio/ogg',
      });
    const ml = await inboundHook(hook, await send('said-ml.ogg', '919811600003'));
    // Sarvam answered (no confidence of its own).
    expect(ml.json.content).toMatchObject({ transcription: 'നാളെ പത്തു മണിക്ക് ബുക്ക് ചെയ്യണം', confidence: null });
    const none = await inboundHook(hook, await send('unheard.ogg', '919811600004'));
    expect(none.json.content).toMatchObject({
      transcription: null,
      confidence: null,
      media_url: expect.stringMatching(/^http/),
    });
  }, 120_000);

  it('a PDF yields a document explanation and a video a description (the model chain answers)', async () => {
    const { s, hook } = await setup();
    const send = (body: Record<string, unknown>) =>
      simInbound({ sessionId: s.sessionId, from: '919811600005', ...body });
    const pdf = await inboundHook(
      hook,
      await send({
        type: 'document',
        mediaUrl: media.url('report.pdf'),
        mimetype: 'application/pdf',
        fileName: 'report.pdf',
      }),
    );
    expect(pdf.json.content.document_explanation).toEqual(expect.any(String));
    expect(pdf.json.content).toMatchObject({
      image_description: null,
      video_description: null,
      ocr_text: null,
    });
    const video = await inboundHook(
      hook,
      await send({ type: 'video', mediaUrl: media.url('clip.mp4'), mimetype: 'video/mp4' }),
    );
    expect(video.json.content.video_description).toEqual(expect.any(String));
    expect(video.json.content).toMatchObject({ document_explanation: null, image_description: null });
  }, 120_000);
});
