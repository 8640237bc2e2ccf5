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
