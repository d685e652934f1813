/**
 * A JSON envelope whose one array is streamed: `{...head, "<key>": [rows…], "<countKey>": n}`. The
 * rows are read one by one as the client takes the output, so a large export never sits in memory;
 * the count comes last because it is known only at the end (JSON key order carries no meaning).
 */
export function jsonEnvelopeStream<T>(
  head: Record<string, unknown>,
  key: string,
  rows: AsyncIterable<T>,
  countKey: string,
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = rows[Symbol.asyncIterator]();
  let n = 0;
  let done = false;
  const opening = JSON.stringify(head).slice(0, -1);
  const sep = opening.length > 1 ? ',' : '';
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(enc.encode(`${opening}${sep}${JSON.stringify(key)}:[`));
      },
      async pull(controller) {
        if (done) return;
        // Up to 200 rows per chunk: fewer, larger writes.
        let chunk = '';
        for (let i = 0; i < 200; i++) {
          const r = await it.next();
          if (r.done) {
            done = true;
            chunk += `],${JSON.stringify(countKey)}:${n}}`;
            break;
          }
          chunk += `${n ? ',' : ''}${JSON.stringify(r.value)}`;
          n++;
        }
        controller.enqueue(enc.encode(chunk));
        if (done) controller.close();
      },
      async cancel() {
        await it.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

export const jsonStreamHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
} as const;
