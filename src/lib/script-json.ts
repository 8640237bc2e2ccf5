/**
 * Data written inside a `<script>` element (JSON-LD, the analytics lists): JSON with every `<`
 * written `\u003c`, so no string in the data can end the element (`</script`) or put the
 * parser in its escaped states (`<!--`). `JSON.parse` reads it back unchanged.
 */
export function scriptJson(value: unknown): string {
  // JSON.stringify gives undefined for undefined, functions and symbols (its type says string).
  const json = JSON.stringify(value) as string | undefined;
  return (json ?? 'null').replaceAll('<', '\\u003c');
}

/**
 * JSON the page or a cookie holds, read back (an analytics list, a card's button data, the
 * kept cookie choice): undefined when it is not text, is longer than `max` characters, or is
 * not JSON. Hostile input gives undefined, never an exception.
 */
export function readJson(raw: string | null | undefined, max: number): unknown {
  if (typeof raw !== 'string' || raw.length > max) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** What `readJson` gives, when it is a plain object (not null, not an array). */
export function readJsonRecord(
  raw: string | null | undefined,
  max: number,
): Record<string, unknown> | null {
  const value = readJson(raw, max);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
