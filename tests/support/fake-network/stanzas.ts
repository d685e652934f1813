import { randomBytes } from 'node:crypto';
import type { BinaryNode } from '@whiskeysockets/baileys';

/** Server time as the network writes it (`t` attributes): seconds. */
export const now = () => String(Math.floor(Date.now() / 1000));
/** An id for a stanza the network starts. */
export const tag = () => randomBytes(6).toString('hex');
export const newMessageId = () => `3EB0${randomBytes(10).toString('hex').toUpperCase()}`;

/**
 * How the network ends a companion's connection: the stream error Baileys maps to that status
 * (`515` restart, `440` a conflict (replaced), `500` an unknown reason (bad session), `401` logged
 * out, any other number as `code`); `428` closes the socket without a word, which Baileys reports
 * as "Connection Terminated".
 */
export type Disconnect = 401 | 403 | 405 | 408 | 411 | 428 | 440 | 500 | 503 | 515 | (number & {});

export function streamError(code: Disconnect): BinaryNode {
  if (code === 440)
    return { tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] };
  // No code and an unknown reason: Baileys' "bad session" (500).
  if (code === 500)
    return { tag: 'stream:error', attrs: {}, content: [{ tag: 'xml-not-well-formed', attrs: {} }] };
  if (code === 401)
    return {
      tag: 'stream:error',
      attrs: { code: '401' },
      content: [{ tag: 'conflict', attrs: { type: 'device_removed' } }],
    };
  return { tag: 'stream:error', attrs: { code: String(code) } };
}
