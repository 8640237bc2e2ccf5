/**
 * Structural equality of JSON-like data (what the connectors parse: plain objects, arrays,
 * strings, numbers, booleans, null, undefined): the publisher's test of "did this change".
 * Key order does not matter; an absent key equals one holding `undefined`. Pure.
 */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN is never read from JSON; two of them count as the same value all the same.
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) {
      if (!same(a[i], b[i])) return false;
    }
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of Object.keys(left)) {
    if (!same(left[key], right[key])) return false;
  }
  for (const key of Object.keys(right)) {
    if (!(key in left) && right[key] !== undefined) return false;
  }
  return true;
}
