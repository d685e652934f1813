/**
 * The value, or a failure that names what was missing: how code narrows a value that must be there
 * (an index the code itself computed, a field a filter upstream already checked) instead of `x!`,
 * which fails later with an unrelated TypeError, or not at all. For the host, the simulator, local
 * mode and their tests alike, so it lives here.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, found ${value}`);
  return value;
}
