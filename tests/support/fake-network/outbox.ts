import type { BinaryNode } from '@whiskeysockets/baileys';
import type { Companion } from './users.ts';

/**
 * How stanzas reach a companion, shared by everything that sends one (phones, calls, the relay):
 * live when its link is online, else into its offline queue. Signal state is not safe under
 * concurrent use, so encryption and decryption run one at a time through `inOrder`.
 */
export class Outbox {
  private serial: Promise<unknown> = Promise.resolve();

  deliver(c: Companion, stanza: BinaryNode): void {
    if (c.link && c.online) c.link.send(stanza);
    else c.queue.push({ ...stanza, attrs: { ...stanza.attrs, offline: '1' } });
  }

  inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.serial.then(fn, fn);
    this.serial = run.catch(() => undefined);
    return run;
  }
}
