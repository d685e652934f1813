import { describe, expect, it } from 'vitest';
import { DEFAULT_PERSONA, normaliseTurns, systemParts } from './prompt.ts';

describe('systemParts', () => {
  it('puts persona and brain first, both cached, then uncached instructions', () => {
    expect(systemParts({ persona: ' Asha ', brain: { a: 1 }, instructions: 'Be brief.' })).toEqual([
      { text: 'Asha', cached: true },
      { text: 'Business knowledge (JSON):\n{"a":1}', cached: true },
      { text: 'Instructions for this reply:\nBe brief.', cached: false },
    ]);
  });

  it('falls back to the default persona and leaves out what is missing', () => {
    expect(systemParts({})).toEqual([{ text: DEFAULT_PERSONA, cached: true }]);
  });
});

describe('normaliseTurns', () => {
  it('merges turns of one role, drops blanks and leading or trailing assistant turns', () => {
    expect(
      normaliseTurns([
        { role: 'assistant', text: 'Welcome!' },
        { role: 'user', text: 'hi' },
        { role: 'user', text: '  ' },
        { role: 'user', text: 'open today?' },
        { role: 'assistant', text: 'Yes' },
        { role: 'user', text: 'till when?' },
        { role: 'assistant', text: 'typing…' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'open today?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Yes' }] },
      { role: 'user', content: [{ type: 'text', text: 'till when?' }] },
    ]);
  });

  it('keeps content blocks (images, PDFs) in place of the text', () => {
    const image = { type: 'image' as const, mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
    expect(normaliseTurns([{ role: 'user', text: 'see', content: [image] }])).toEqual([
      { role: 'user', content: [image] },
    ]);
  });

  it('refuses a conversation without a customer turn', () => {
    expect(() => normaliseTurns([{ role: 'assistant', text: 'hello' }])).toThrow(
      'no model asked (the conversation has no customer turn to answer)',
    );
  });
});
