import { logger } from '#shared/log/logger';
import { ACK_MAX_IDS } from '../protocol.ts';

/**
 * Acknowledges handed-on messages to the network, batched: one `ack` request in flight per link,
 * carrying every id handed on meanwhile, so a busy session costs a request per batch, not per
 * message. An ack that fails is not retried: the network sends those messages again on the next
 * link, same ids, and the events consumer keeps each once.
 */
export class AckBatcher {
  private ids: string[] = [];
  private sending = false;

  constructor(private readonly post: (ids: string[]) => Promise<unknown>) {}

  add(id: string): void {
    this.ids.push(id);
    if (!this.sending) void this.drain();
  }

  private async drain(): Promise<void> {
    this.sending = true;
    // A tick first, so the ids handed on together go in one request.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.ids.length) {
      const batch = this.ids.splice(0, ACK_MAX_IDS);
      await this.post(batch).catch((err) =>
        logger.warn({ err, messages: batch.length }, 'ack not delivered; the network will send them again'),
      );
    }
    this.sending = false;
  }
}
