/** The deepest nesting of arrays and objects a JSON body may have (docs/api.md). */
export const JSON_MAX_DEPTH = 64;

const HEX4 = /^[0-9a-fA-F]{4}$/;
const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/**
 * Why a JSON text may not be taken, or undefined when it may. One pass over the text before it is
 * parsed: nesting deeper than JSON_MAX_DEPTH (a value 10,000 deep parses, then overflows the stack
 * of whatever walks it: validation, marshalling, JSON.stringify), a lone UTF-16 surrogate (`\ud800`
 * without its pair is not Unicode: it breaks URL encoding, UTF-8 storage and every consumer
 * downstream) and NUL (no text field means it; C strings and child processes stop at it), whether
 * written raw or escaped. Syntax errors are left to JSON.parse.
 */
export function jsonTextProblem(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  // A high surrogate was the last code unit: the next one must be its low half.
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (!inString) {
      if (ch === 0x22) inString = true;
      else if (ch === 0x5b || ch === 0x7b) {
        if (++depth > JSON_MAX_DEPTH)
          return `arrays and objects may be nested at most ${JSON_MAX_DEPTH} deep`;
      } else if (ch === 0x5d || ch === 0x7d) depth--;
      continue;
    }
    let unit = ch;
    if (ch === 0x22) {
      if (open) return LONE;
      inString = false;
      continue;
    }
    if (ch === 0x5c) {
      if (text.charCodeAt(i + 1) !== 0x75) {
        if (open) return LONE;
        i++; // a one-character escape: \" \\ \n …
        continue;
      }
      const hex = text.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) return undefined; // not JSON: JSON.parse says so
      unit = Number.parseInt(hex, 16);
      i += 5;
    }
    if (unit === 0) return 'text may not contain NUL (\\u0000)';
    if (open !== isLow(unit)) return LONE;
    open = isHigh(unit);
  }
  return undefined;
}

const LONE = 'text must be valid Unicode: a UTF-16 surrogate (\\ud800–\\udfff) without its pair';
