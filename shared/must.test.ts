import { describe, expect, it } from 'vitest';
import { must } from './must.ts';

describe('must', () => {
  it('answers a present value as it is, falsy ones too', () => {
    expect(must(0, 'a count')).toBe(0);
    expect(must('', 'a name')).toBe('');
    expect(must(false, 'a flag')).toBe(false);
  });

  it('fails naming what was missing', () => {
    expect(() => must(undefined, 'the first link')).toThrow('expected the first link, found undefined');
    expect(() => must(null, 'a body')).toThrow('expected a body, found null');
  });
});
