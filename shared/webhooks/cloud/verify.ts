import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../http/errors.ts';
import { guardedFetch, TargetNotAllowedError } from '../../outbound/guard.ts';

const HANDSHAKE_TIMEOUT_MS = 10_000;
/** A challenge echo is a few bytes; a receiver answering more is not echoing it. */
const HANDSHAKE_MAX_BYTES = 4 * 1024;

/**
 * Meta's verification request: `GET <url>?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`,
 * which the receiver must answer with 200 and the challenge as its body. Made through the
 * private-address guard (a refused address is 403 FORBIDDEN, as for native webhooks); any other
 * failure is a 400 naming `webhookUrl` and what the receiver did.
 */
export async function verifyCloudReceiver(url: string, verifyToken: string): Promise<void> {
  const challenge = randomBytes(16).toString('hex');
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.verify_token', verifyToken);
  target.searchParams.set('hub.challenge', challenge);
  const refuse = (why: string) =>
    new ValidationError(
      `webhookUrl: the verification request was not answered with the challenge (${why}); the receiver must answer GET ?hub.mode=subscribe&hub.verify_token=<verifyToken>&hub.challenge=<challenge> with 200 and the challenge as the body`,
      'webhookUrl',
    );
  let status: number;
  let body: string;
  try {
    const res = await guardedFetch(
      target.href,
      { method: 'GET', headers: { 'user-agent': 'session-manager-webhooks/1' } },
      { timeoutMs: HANDSHAKE_TIMEOUT_MS, maxBytes: HANDSHAKE_MAX_BYTES },
    );
    status = res.status;
    body = await res.text();
  } catch (err) {
    if (err instanceof TargetNotAllowedError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw refuse(String(e.code ?? e.message).slice(0, 200));
  }
  if (status !== 200) throw refuse(`HTTP ${status}`);
  if (body.trim() !== challenge) throw refuse('HTTP 200 with a different body');
}
