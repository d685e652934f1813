import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelChain } from '#shared/ai/chain';
import { DEFAULT_COOLDOWN } from '#shared/ai/config';
import { ffmpegPath, ffmpegPaths } from '#shared/config/binaries';
import {
  type DescribeDeps,
  type DescribeInput,
  describers,
} from '../../functions/media/describe/describe.ts';
import { createDescribeAnalysers } from '../../functions/media/describe/index.ts';
import { DESCRIBE_LIMITS } from '../../functions/media/describe/limits.ts';
import { testPdf } from '../../functions/media/describe/test-media.ts';
import { type FakeAi, startFakeAi } from '../support/fake-ai.ts';
import { must } from '../support/must.ts';

/**
 * The describers over real HTTP against the fake model providers, with real ffmpeg/ffprobe and the
 * chain's key state in the local DynamoDB. Keys are fresh per test.
 */
let ai: FakeAi;
let dir: string;
let video: Buffer;
let silentVideo: Buffer;
const run = promisify(execFile);

beforeAll(async () => {
  ai = await startFakeAi();
  dir = await mkdtemp(join(tmpdir(), 'describe-test-'));
  const src = ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10'];
  const out = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
  await run(ffmpegPath(), ['-y', '-loglevel', 'error', ...src, ...out, join(dir, 'silent.mp4')]);
  const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'];
  await run(ffmpegPath(), [
    '-y',
    '-loglevel',
    'error',
    ...src,
    ...sine,
    ...out,
    '-c:a',
    'aac',
    '-shortest',
    join(dir, 'video.mp4'),
  ]);
  silentVideo = await readFile(join(dir, 'silent.mp4'));
  video = await readFile(join(dir, 'video.mp4'));
}, 60_000);
afterAll(async () => {
  await ai.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => ai.reset());

function deps(over: Partial<DescribeDeps> = {}, key = `p-${randomUUID()}`): DescribeDeps {
  return {
    chain: () =>
      createModelChain({
        primary: {
          name: 'primary',
          kind: 'anthropic',
          baseUrl: ai.url,
          keys: [key],
          model: 'claude-haiku-4-5',
        },
        timeoutMs: 5_000,
        maxTokens: 256,
        cooldown: DEFAULT_COOLDOWN,
        startIndex: () => 0,
      }),
    transcribe: async () => {
      throw new Error('no transcription expected in this test');
    },
    ffmpeg: ffmpegPaths(),
    ...over,
  };
}

const input = (over: Partial<DescribeInput>): DescribeInput => ({
  tenantId: `t_${randomUUID()}`,
  sessionId: 's1',
  messageId: `m_${randomUUID()}`,
  mimetype: 'application/octet-stream',
  bytes: new Uint8Array(),
  ...over,
});
const signal = () => AbortSignal.timeout(20_000);
const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff8800' } })
    .png()
    .toBuffer();

describe('describe image', () => {
  it('sends the image as a base64 block with the caption, and returns the model’s text and usage', async () => {
    ai.setAnswer(() => 'An orange square; no text.');
    const bytes = await png();
    const out = await describers(deps()).image(
      input({ mimetype: 'image/png', bytes, caption: 'what colour is this?' }),
      { signal: signal() },
    );
    expect(out).toMatchObject({ analysis: { imageDescription: 'An orange square; no text.' }, failures: [] });
    expect(out.modelCalls).toEqual([
      { tier: 'primary', keyIndex: 0, usage: expect.objectContaining({ output: expect.any(Number) }) },
    ]);
    expect(
      must(out.modelCalls[0], 'out.modelCalls[0]').usage.input +
        must(out.modelCalls[0], 'out.modelCalls[0]').usage.cacheWrite,
    ).toBeGreaterThan(0);
    const sent = must(ai.requests[0], 'ai.requests[0]').body;
    expect(sent.messages[0].content[0]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') },
    });
    expect(sent.messages[0].content[1].text).toContain('«what colour is this?»');
    expect(sent.system[0].text).toContain('customer’s language');
  });

  it('leaves the field null with the reason when every hop fails, or the image is refused', async () => {
    const key = `p-${randomUUID()}`;
    ai.behave(key, { kind: 'status', status: 500 });
    const failed = await describers(deps({}, key)).image(input({ bytes: await png() }), { signal: signal() });
    expect(failed.analysis).toEqual({ imageDescription: null });
    expect(failed.failures).toEqual([
      expect.objectContaining({ field: 'imageDescription', code: 'DESCRIBE_MODEL_UNAVAILABLE' }),
    ]);

    ai.requests.length = 0;
    const limits = { ...DESCRIBE_LIMITS, imageMaxSide: 32 };
    const big = await describers(deps({ limits })).image(input({ bytes: await png() }), { signal: signal() });
    expect(big.failures[0]).toMatchObject({ code: 'DESCRIBE_TOO_LARGE' });
    expect(ai.requests).toHaveLength(0);
  });

  it('stops waiting for the model when the signal aborts', async () => {
    const key = `p-${randomUUID()}`;
    ai.behave(key, { kind: 'answer', delayMs: 3_000 });
    const t0 = Date.now();
    const out = await describers(deps({}, key)).image(input({ bytes: await png() }), {
      signal: AbortSignal.timeout(300),
    });
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(out.failures[0]).toMatchObject({ code: 'DESCRIBE_TIMEOUT' });
  });
});

describe('explain document', () => {
  it('sends the PDF as a document block and returns the explanation', async () => {
    ai.setAnswer((text) => `An invoice. ${text.includes('2 page(s)') ? 'Two pages.' : ''}`.trim());
    const pdf = testPdf(['Invoice 42', 'Total 10 EUR']);
    const out = await describers(deps()).document(
      input({ mimetype: 'application/pdf', fileName: 'invoice.pdf', bytes: pdf }),
      { signal: signal() },
    );
    expect(out.analysis).toEqual({ documentExplanation: 'An invoice. Two pages.' });
    expect(out.modelCalls).toHaveLength(1);
    expect(must(ai.requests[0], 'ai.requests[0]').body.messages[0].content[0]).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') },
    });
    expect(must(ai.requests[0], 'ai.requests[0]').body.messages[0].content[1].text).toContain(
      '«invoice.pdf»',
    );
  });

  it('refuses non-PDF documents and PDFs over the page limit without a model call', async () => {
    const d = describers(deps({ limits: { ...DESCRIBE_LIMITS, pdfMaxPages: 1 } }));
    const docx = await d.document(
      input({
        mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        bytes: Buffer.from('PK'),
      }),
      { signal: signal() },
    );
    expect(docx.analysis).toEqual({ documentExplanation: null });
    expect(docx.failures[0]).toMatchObject({ code: 'DESCRIBE_UNSUPPORTED' });
    const long = await d.document(input({ mimetype: 'application/pdf', bytes: testPdf(['a', 'b']) }), {
      signal: signal(),
    });
    expect(long.failures[0]).toMatchObject({
      code: 'DESCRIBE_TOO_LARGE',
      message: expect.stringContaining('2 pages'),
    });
    expect(ai.requests).toHaveLength(0);
  });
});

describe('describe video', () => {
  it('sends evenly spaced JPEG keyframes and says the video has no sound', async () => {
    ai.setAnswer(() => 'A test pattern with a counter.');
    const out = await describers(deps()).video(input({ mimetype: 'video/mp4', bytes: silentVideo }), {
      signal: signal(),
    });
    expect(out.failures).toEqual([]);
    expect(out.analysis).toEqual({
      videoDescription: 'A test pattern with a counter.',
      transcription: null,
      confidence: null,
    });
    const content = must(ai.requests[0], 'ai.requests[0]').body.messages[0].content as any[];
    const frames = content.filter((b) => b.type === 'image');
    expect(frames).toHaveLength(DESCRIBE_LIMITS.videoFrames);
    for (const f of frames) {
      expect(f.source.media_type).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(f.source.data, 'base64')).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    }
    const times = content
      .filter((b) => b.type === 'text' && b.text.startsWith('Frame at'))
      .map((b) => b.text);
    expect(times).toEqual(['Frame at 0.25 s:', 'Frame at 0.75 s:', 'Frame at 1.25 s:', 'Frame at 1.75 s:']);
    expect(content.at(-1).text).toContain('The video has no sound.');
  });

  it('scales frames down and refuses a video over the duration or byte limit', async () => {
    const small = { ...DESCRIBE_LIMITS, frameWidth: 160, videoFrames: 2 };
    await describers(deps({ limits: small })).video(input({ bytes: silentVideo }), { signal: signal() });
    const frames = (must(ai.requests[0], 'ai.requests[0]').body.messages[0].content as any[]).filter(
      (b) => b.type === 'image',
    );
    expect(frames).toHaveLength(2);
    expect(await sharp(Buffer.from(frames[0].source.data, 'base64')).metadata()).toMatchObject({
      width: 160,
      height: 120,
    });

    ai.requests.length = 0;
    const short = await describers(deps({ limits: { ...DESCRIBE_LIMITS, videoMaxSeconds: 1 } })).video(
      input({ bytes: silentVideo }),
      { signal: signal() },
    );
    expect(short.failures[0]).toMatchObject({
      code: 'DESCRIBE_TOO_LARGE',
      message: expect.stringContaining('2 s'),
    });
    const heavy = await describers(deps({ limits: { ...DESCRIBE_LIMITS, videoMaxBytes: 100 } })).video(
      input({ bytes: silentVideo }),
      { signal: signal() },
    );
    expect(heavy.failures[0]).toMatchObject({ code: 'DESCRIBE_TOO_LARGE' });
    const broken = await describers(deps()).video(input({ bytes: Buffer.from('not a video') }), {
      signal: signal(),
    });
    expect(broken.analysis.videoDescription).toBeNull();
    expect(must(broken.failures[0], 'broken.failures[0]').code).toMatch(
      /^DESCRIBE_(FFMPEG_FAILED|UNSUPPORTED)$/,
    );
    expect(ai.requests).toHaveLength(0);
  });

  it('reports a missing ffmpeg as the reason', async () => {
    const out = await describers(
      deps({ ffmpeg: { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' } }),
    ).video(input({ bytes: video }), { signal: signal() });
    expect(out.failures[0]).toMatchObject({
      code: 'DESCRIBE_FFMPEG_FAILED',
      message: expect.stringContaining('not installed'),
    });
  });
});

describe('the analysers', () => {
  const media = (kind: 'image' | 'video' | 'document', mimetype: string, bytes: Uint8Array) => ({
    ...input({ mimetype, bytes }),
    kind,
  });

  it('return the analysis and the model calls for telemetry; a failure is a null field, not a rejection', async () => {
    const d = deps();
    const analysers = createDescribeAnalysers({ chain: d.chain, ffmpeg: d.ffmpeg });
    ai.setAnswer(() => 'A photo.');
    const image = await analysers.describeImageAnalyser(media('image', 'image/png', await png()), {
      signal: signal(),
    });
    expect(image).toEqual({
      analysis: { imageDescription: 'A photo.' },
      modelCalls: [{ tier: 'primary', keyIndex: 0, usage: expect.any(Object) }],
    });
    const docx = await analysers.explainDocumentAnalyser(
      media('document', 'application/msword', Buffer.from('x')),
      {
        signal: signal(),
      },
    );
    expect(docx).toEqual({ analysis: { documentExplanation: null }, modelCalls: [] });
  });

  it('describe a video with sound from its frames when its sound cannot be transcribed', async () => {
    const d = deps();
    const analysers = createDescribeAnalysers({ chain: d.chain, ffmpeg: d.ffmpeg });
    ai.setAnswer(() => 'A test pattern.');
    const out = await analysers.describeVideoAnalyser(media('video', 'video/mp4', video), {
      signal: signal(),
    });
    expect(out.analysis).toEqual({
      videoDescription: 'A test pattern.',
      transcription: null,
      confidence: null,
    });
    expect(out.transcribed).toBeUndefined();
    expect(must(ai.requests[0], 'ai.requests[0]').body.messages[0].content.at(-1).text).toContain(
      'No speech was transcribed',
    );
  });
});
