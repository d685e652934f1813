import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { oggTone } from './tone.ts';

/**
 * Speech-to-text providers standing in for the real ones, as a real HTTP server: an OpenAI-compatible
 * `POST /v1/audio/transcriptions` and Sarvam's `POST /speech-to-text`. What they answer is written in
 * the audio itself, so tests in any process script them without a control API:
 * - `SAY:<words>;` somewhere in the file: the transcript is `<words>`;
 * - `FAIL:openai;` the OpenAI-compatible endpoint answers 500 (Sarvam still answers);
 * - `FAIL:all;` both answer 500.
 * It also speaks: `POST /v1/audio/speech` answers one second of a tone as OGG/Opus (made with
 * ffmpeg at start), whatever the input.
 * `GET /requests` lists `{provider, key, input?}` of every request (keys are test keys).
 */
export async function startFakeSpeech() {
  const requests: Array<{
    provider: 'openai' | 'sarvam' | 'openai-speech';
    key: string;
    at: number;
    input?: string;
  }> = [];
  const tone = oggTone('libopus');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      const send = (status: number, j: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(j));
      if (req.method === 'GET' && req.url === '/requests') return send(200, requests);
      if (req.method === 'POST' && req.url === '/v1/audio/speech') {
        const j = JSON.parse(body || '{}') as { input?: string; response_format?: string };
        const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        requests.push({ provider: 'openai-speech', key, at: Date.now(), input: j.input });
        if (!key || j.response_format !== 'opus') return send(400, { error: 'key and opus required' });
        res.writeHead(200, { 'content-type': 'audio/ogg' }).end(tone);
        return;
      }
      const provider =
        req.method === 'POST' && req.url === '/v1/audio/transcriptions'
          ? 'openai'
          : req.method === 'POST' && req.url === '/speech-to-text'
            ? 'sarvam'
            : undefined;
      if (!provider) return send(404, { error: 'unknown path' });
      const key =
        provider === 'openai'
          ? String(req.headers.authorization ?? '').replace(/^Bearer /, '')
          : String(req.headers['api-subscription-key'] ?? '');
      requests.push({ provider, key, at: Date.now() });
      if (!key) return send(401, { error: 'no key' });
      if (body.includes('FAIL:all;') || (provider === 'openai' && body.includes('FAIL:openai;')))
        return send(500, { error: 'provider down' });
      // The words are UTF-8 inside a latin1 view of the body: decode them back.
      const said = /SAY:([^;]*);/.exec(body)?.[1];
      const words = said === undefined ? '' : Buffer.from(said, 'latin1').toString('utf8');
      if (provider === 'openai')
        return send(200, {
          text: words,
          language: 'en',
          segments: [{ avg_logprob: -0.1 }, { avg_logprob: -0.3 }],
        });
      return send(200, { transcript: words, language_code: 'ml-IN', request_id: 'r1' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** STT_BASE_URL for the OpenAI-compatible endpoint. */
    openAiBaseUrl: `${url}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
