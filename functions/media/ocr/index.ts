/**
 * OCR for inbound images: tesseract.js (wasm) in one long-lived worker thread per process.
 *
 * The worker is created on first use and reused; jobs run one at a time in arrival order, so a
 * timeout measures the job, not its wait. A job that times out takes the worker down with it (a wasm
 * call cannot be interrupted) and the next job starts a fresh one. Language data is read from the
 * `@tesseract.js-data/*` npm packages and the core wasm comes from `tesseract.js-core` in
 * node_modules; the worker runs behind a network guard (worker-entry.cjs).
 */
import { fileURLToPath } from 'node:url';
import type { Worker as NodeWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import { OcrError } from './errors.ts';
import { languageDirectory, type OcrLanguage, parseLanguages } from './languages.ts';
import { checkImage, OCR_LIMITS } from './limits.ts';

export { OcrError, type OcrErrorCode } from './errors.ts';
export { type OcrLanguage, SHIPPED_LANGUAGES } from './languages.ts';
export { checkImage, OCR_LIMITS } from './limits.ts';

export interface OcrResult {
  /** Recognised text, trimmed; empty when the image holds none. */
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
  langs: OcrLanguage[];
  /** Time the job took in the worker (language switch included, queue wait excluded). */
  ms: number;
}

export interface RecogniseOptions {
  timeoutMs?: number;
}

/** Options the worker is created with: everything local, nothing cached to disk. */
export async function ocrWorkerOptions(): Promise<Partial<Tesseract.WorkerOptions>> {
  const local = await languageDirectory();
  return {
    workerPath: fileURLToPath(new URL('./worker-entry.cjs', import.meta.url)),
    // A local langPath keeps tesseract from building its default CDN URL; cacheMethod 'none' keeps
    // it from writing .traineddata copies into the cwd (read-only on Lambda).
    langPath: local,
    cachePath: local,
    cacheMethod: 'none',
    gzip: true,
    legacyCore: false,
    legacyLang: false,
    // Without a handler tesseract rethrows a failed job inside its message listener, which would be
    // an uncaught exception; the job's own promise carries the error to the caller.
    errorHandler: () => {},
  };
}

interface Running {
  worker: Tesseract.Worker;
  langs: string;
  /** Rejects when the thread dies, so the job in progress fails at once instead of at its timeout. */
  gone: Promise<never>;
}

let running: Promise<Running> | undefined;
let queue: Promise<unknown> = Promise.resolve();

async function startWorker(langs: OcrLanguage[]): Promise<Running> {
  // A failed start reaches only the errorHandler (createWorker then never settles; the thread ends
  // itself, see worker-entry.cjs).
  let failed: (reason: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  failure.catch(() => {});
  const options = await ocrWorkerOptions();
  const created = Tesseract.createWorker(langs, Tesseract.OEM.LSTM_ONLY, {
    ...options,
    errorHandler: (reason: unknown) => failed(new Error(String(reason))),
  });
  const worker = await Promise.race([created, failure]);
  const thread = (worker as unknown as { worker?: NodeWorker }).worker;
  const gone = new Promise<never>((_, reject) => {
    thread?.once('exit', (code) => reject(new Error(`the OCR worker thread exited (code ${code})`)));
  });
  gone.catch(() => {});
  return { worker, langs: langs.join('+'), gone };
}

/** The running worker, started or switched to `langs` as needed. Called only from queued jobs. */
async function workerFor(langs: OcrLanguage[]) {
  const current = running ? await running.catch(() => undefined) : undefined;
  if (current && current.langs !== langs.join('+')) {
    await current.worker.reinitialize(langs.join('+'), Tesseract.OEM.LSTM_ONLY);
    current.langs = langs.join('+');
  }
  if (current) return current;
  const starting = startWorker(langs);
  running = starting;
  const forget = () => {
    if (running === starting) running = undefined;
  };
  const started = await starting.catch((err: unknown) => {
    forget();
    throw err;
  });
  // A thread that dies (wasm abort, out of memory) is replaced on the next job.
  const thread = (started.worker as unknown as { worker?: NodeWorker }).worker;
  thread?.on('error', forget);
  thread?.on('exit', forget);
  return started;
}

/** Starts the worker ahead of the first image (e.g. during a Lambda's init phase). */
export function startOcr(langs?: string[]) {
  const parsed = parseLanguages(langs);
  return enqueue(async () => {
    await workerFor(parsed);
  });
}

/** Terminates the worker; the next `recognise` starts a new one. */
export async function shutdownOcr() {
  const current = running;
  running = undefined;
  const r = current ? await current.catch(() => undefined) : undefined;
  await r?.worker.terminate();
}

function enqueue<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => {});
  return run;
}

/**
 * Reads the text in an image (png, jpg, webp, bmp, pnm) in the given shipped languages (default
 * English). Refuses images over OCR_LIMITS before decoding; rejects with an OcrError.
 */
export async function recognise(
  image: Buffer,
  langs?: string[],
  options: RecogniseOptions = {},
): Promise<OcrResult> {
  checkImage(image);
  const parsed = parseLanguages(langs);
  const timeoutMs = options.timeoutMs ?? OCR_LIMITS.timeoutMs;
  return enqueue(async () => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void shutdownOcr();
        reject(new OcrError('OCR_TIMEOUT', `OCR did not finish within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const work = (async () => {
        const { worker, gone } = await workerFor(parsed);
        return Promise.race([worker.recognize(image), gone]);
      })();
      work.catch(() => {});
      const { data } = await Promise.race([work, timedOut]);
      return {
        text: data.text.trim(),
        confidence: Math.max(0, Math.min(100, Math.round(data.confidence))),
        langs: parsed,
        ms: Math.round(performance.now() - started),
      };
    } catch (err) {
      if (err instanceof OcrError) throw err;
      throw new OcrError('OCR_FAILED', `OCR failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      clearTimeout(timer);
    }
  });
}
