/**
 * Splits a server-sent-events stream into its blocks (the text between blank lines), each as it
 * completes. Vitest-free: the e2e stream client (sse-client.ts) and the benches' stream readers
 * share it, so the framing is read one way.
 */
export class SseBlocks {
  private buf = '';

  /** Adds text read from the stream; answers the blocks it completed, in order. */
  push(text: string): string[] {
    this.buf += text;
    const blocks: string[] = [];
    let end = this.buf.indexOf('\n\n');
    while (end >= 0) {
      blocks.push(this.buf.slice(0, end));
      this.buf = this.buf.slice(end + 2);
      end = this.buf.indexOf('\n\n');
    }
    return blocks;
  }
}

/** The blocks of a stream's body (bytes, decoded as UTF-8 across chunk edges), as they complete. */
export async function* sseBlocks(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const blocks = new SseBlocks();
  for await (const chunk of body) yield* blocks.push(decoder.decode(chunk, { stream: true }));
}
