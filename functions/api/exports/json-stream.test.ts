import { describe, expect, it } from 'vitest';
import { jsonEnvelopeStream } from './json-stream.ts';

async function* rows(n: number) {
  for (let i = 0; i < n; i++) yield { i, name: `ലീഡ് "${i}"` };
}
const read = async (s: ReadableStream<Uint8Array>) => JSON.parse(await new Response(s).text());

describe('streamed JSON envelope', () => {
  it.each([0, 1, 199, 200, 201, 1000])('is valid JSON with %i rows and their count', async (n) => {
    const out = await read(
      jsonEnvelopeStream({ success: true, targetSessions: ['a'] }, 'contacts', rows(n), 'total'),
    );
    expect(out.success).toBe(true);
    expect(out.targetSessions).toEqual(['a']);
    expect(out.total).toBe(n);
    expect(out.contacts).toHaveLength(n);
    if (n) expect(out.contacts[n - 1]).toEqual({ i: n - 1, name: `ലീഡ് "${n - 1}"` });
  });

  it('works with an empty head', async () => {
    expect(await read(jsonEnvelopeStream({}, 'x', rows(2), 'n'))).toEqual({
      x: [
        { i: 0, name: 'ലീഡ് "0"' },
        { i: 1, name: 'ലീഡ് "1"' },
      ],
      n: 2,
    });
  });
});
