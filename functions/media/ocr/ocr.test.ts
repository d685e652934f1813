import { readdirSync, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import Tesseract from 'tesseract.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { must } from '../../../tests/support/must.ts';
import { ocrWorkerOptions, recognise, SHIPPED_LANGUAGES, shutdownOcr } from './index.ts';
import { blankImage, textImage } from './test-images.ts';

const nodeModules = resolve(import.meta.dirname, '../../../node_modules');

afterAll(() => shutdownOcr());

describe('recognise (real tesseract.js worker)', () => {
  it('reads the words of an image rendered in the test, without blocking the event loop', async () => {
    const image = await textImage(['Paracetamol 500 mg tablets', 'Take two daily after food']);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    // Cold start included: worker thread, wasm core and language data load while we tick.
    let last = performance.now();
    let ticks = 0;
    let maxGap = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks += 1;
    }, 10);
    const result = await recognise(image).finally(() => clearInterval(tick));

    const words = result.text.split(/\s+/);
    for (const w of ['Paracetamol', '500', 'mg', 'tablets', 'Take', 'two', 'daily', 'after', 'food'])
      expect(words).toContain(w);
    expect(result.confidence).toBeGreaterThan(70);
    expect(result.confidence).toBeLessThanOrEqual(100);
    expect(result.langs).toEqual(['eng']);
    expect(result.ms).toBeGreaterThan(0);
    // Responsive throughout: the interval kept firing and never stalled for long.
    expect(ticks).toBeGreaterThan(result.ms / 10 / 4);
    expect(maxGap).toBeLessThan(300);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('switches the same worker to English + Malayalam from the shipped data', async () => {
    const result = await recognise(await textImage(['Invoice 2041 paid']), ['eng', 'mal']);
    expect(result.langs).toEqual(['eng', 'mal']);
    expect(result.text).toMatch(/Invoice/);
    expect(result.text).toMatch(/2041/);
  });

  it('refuses an oversized image without running OCR', async () => {
    const huge = await blankImage(6000, 4000); // 24 MP
    await expect(recognise(huge)).rejects.toMatchObject({
      code: 'OCR_IMAGE_TOO_LARGE',
      message: 'the image is 6000×4000 (24.0 MP); OCR accepts at most 20 MP',
    });
    await expect(recognise(Buffer.alloc(11 * 1024 * 1024))).rejects.toMatchObject({
      code: 'OCR_IMAGE_TOO_LARGE',
    });
  });

  it('gives up after the timeout, and the next image gets a fresh worker', async () => {
    const image = await textImage(['Timeout check']);
    await expect(recognise(image, ['eng'], { timeoutMs: 1 })).rejects.toMatchObject({
      code: 'OCR_TIMEOUT',
      message: 'OCR did not finish within 1 ms',
    });
    const again = await recognise(image);
    expect(again.text).toBe('Timeout check');
  });
  it('a worker that dies mid-job fails that job at once, and the next job gets a new one', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of a long scanned page of text`);
    const image = await textImage(lines, { width: 1400 });
    await recognise(await textImage(['warm'])); // the worker is up before the job we interrupt
    const started = performance.now();
    const job = recognise(image);
    setTimeout(() => void shutdownOcr(), 150);
    await expect(job).rejects.toMatchObject({
      code: 'OCR_FAILED',
      message: expect.stringMatching(/^OCR failed: the OCR worker thread exited \(code \d+\)$/),
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await recognise(await textImage(['Back again']))).text).toBe('Back again');
  });
});

describe('no network', () => {
  it('reads language data from the npm packages and the wasm core from node_modules', async () => {
    const options = await ocrWorkerOptions();
    expect(options.cacheMethod).toBe('none');
    expect(options.langPath).toBeDefined();
    expect(options.langPath).not.toMatch(/^[a-z]+:\/\//i);
    const langPath = must(options.langPath, 'langPath');
    const files = readdirSync(langPath).sort();
    expect(files).toEqual(SHIPPED_LANGUAGES.map((l) => `${l}.traineddata.gz`).sort());
    for (const code of SHIPPED_LANGUAGES)
      expect(realpathSync(join(langPath, `${code}.traineddata.gz`))).toBe(
        join(nodeModules, '@tesseract.js-data', code, '4.0.0_best_int', `${code}.traineddata.gz`),
      );
    expect(options.workerPath).toBe(join(import.meta.dirname, 'worker-entry.cjs'));
    // tesseract.js's Node worker loads the core with require('tesseract.js-core/...'): from node_modules.
    const core = createRequire(import.meta.url).resolve('tesseract.js-core/tesseract-core-lstm', {
      paths: [join(nodeModules, 'tesseract.js')],
    });
    expect(core.startsWith(join(nodeModules, 'tesseract.js-core') + sep)).toBe(true);
  });

  it('the worker thread refuses any network request (a URL langPath fails, the server sees nothing)', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const options = await ocrWorkerOptions();
      // tesseract.js reports a failed start only to errorHandler; the guarded thread then ends itself.
      const failure = new Promise<unknown>((resolve) => {
        void Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
          ...options,
          langPath: `http://127.0.0.1:${port}/tessdata`,
          errorHandler: resolve,
        });
      });
      expect(String(await failure)).toMatch(
        /network access refused \(fetch http:\/\/127\.0\.0\.1:\d+\/tessdata\/eng\.traineddata\.gz\)/,
      );
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});
