import { LRUCache } from 'lru-cache';
import { RE2JS, RE2JSException, RE2Set } from 're2js';
import { ValidationError } from '../http/errors.ts';
import { MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE } from './regex-limits.ts';

/**
 * User regular expressions (chatbot rules) run on RE2JS, a port of RE2: matching time is linear in
 * the input whatever the pattern, so no pattern can stall the process (no backtracking, hence no
 * back-references or look-arounds: such patterns are refused when the rule is saved).
 */

export { MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE } from './regex-limits.ts';

export interface SafeRegex {
  readonly source: string;
  /** Whether the pattern matches anywhere in the text (unanchored, case-insensitive). */
  test(text: string): boolean;
}

/** Compiles a user pattern or throws a 400 `ValidationError` naming `field`. */
export function compileSafeRegex(pattern: string, field = 'keyword'): SafeRegex {
  if (pattern.length === 0) throw new ValidationError(`${field}: the regular expression is empty`, field);
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ValidationError(
      `${field}: the regular expression is longer than ${MAX_PATTERN_LENGTH} characters`,
      field,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    throw new ValidationError(
      `${field}: not a supported regular expression (${err.message}); the engine is RE2: no back-references or look-arounds`,
      field,
    );
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    throw new ValidationError(`${field}: the regular expression is too large once compiled`, field);
  }
  return {
    source: pattern,
    test: (text) => re.test(text),
  };
}

/** Compiled patterns (`false`: does not compile), least recently used dropped first. */
const cache = new LRUCache<string, SafeRegex | false>({ max: 2_000 });

/**
 * The compiled pattern, cached per source (a warm Lambda matches the same rules on every message);
 * `undefined` for a pattern that no longer compiles, which then simply never matches.
 */
export function cachedSafeRegex(pattern: string): SafeRegex | undefined {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    try {
      hit = compileSafeRegex(pattern);
    } catch {
      hit = false;
    }
    cache.set(pattern, hit);
  }
  return hit || undefined;
}

/** Sets kept compiled (least recently used dropped first), each with a bounded DFA cache. */
const sets = new LRUCache<string, (text: string) => Set<number>>({ max: 32 });
const SET_DFA_MEMORY = 2 * 1024 * 1024;

/**
 * One pass over the text for many patterns (an RE2 set, one automaton): answers the indices (into
 * `patterns`) of those that match anywhere, case-insensitively. Patterns that do not compile never
 * match. Cached per list of patterns, so a warm process compiles a tenant's rules once; past its
 * memory budget the set's DFA gives way to RE2's NFA, still linear.
 */
export function cachedRegexSet(patterns: string[]): (text: string) => Set<number> {
  const signature = patterns.join('\u0000');
  let matcher = sets.get(signature);
  if (!matcher) {
    const set = new RE2Set(RE2Set.UNANCHORED, RE2JS.CASE_INSENSITIVE, SET_DFA_MEMORY);
    const original: number[] = [];
    patterns.forEach((p, i) => {
      if (!cachedSafeRegex(p)) return;
      set.add(p);
      original.push(i);
    });
    if (original.length > 0) set.compile();
    matcher = (text) =>
      original.length === 0 ? new Set() : new Set(set.match(text).map((k) => original[k] ?? -1));
    sets.set(signature, matcher);
  }
  return matcher;
}
