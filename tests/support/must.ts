/**
 * The value, or a failure that names what was missing: how tests and benches narrow a value that
 * may be absent (instead of `x!`, which fails later with an unrelated TypeError, or not at all).
 * Vitest-free: benches use it too.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, found ${value}`);
  return value;
}
