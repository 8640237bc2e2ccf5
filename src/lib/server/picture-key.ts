/**
 * One variant of a picture, as a key: its source and the properties its encoded output depends
 * on (what sharp's `transform` reads besides `src`). Two transforms with the same key give the
 * same bytes, whatever else they carry (`loading`, `sizes`...). Used by the image service to
 * match a pre-encoded variant, and by the release's picture table (`listing-store.ts`) to find
 * the file the build encoded for a variant an on-demand page shows.
 */
const OUTPUT_PROPERTIES = [
  'width',
  'height',
  'format',
  'quality',
  'fit',
  'position',
  'background',
] as const;

export type OutputProperty = (typeof OUTPUT_PROPERTIES)[number];

/** One variant: a source and the properties of its output. */
export function transformKey(src: string, transform: Readonly<Record<string, unknown>>): string {
  return JSON.stringify([src, ...OUTPUT_PROPERTIES.map((name) => transform[name] ?? null)]);
}

/** The output properties a transform sets, nothing else. */
export function outputProperties(
  transform: Readonly<Record<string, unknown>>,
): Partial<Record<OutputProperty, unknown>> {
  const picked: Partial<Record<OutputProperty, unknown>> = {};
  for (const name of OUTPUT_PROPERTIES) {
    if (transform[name] !== undefined) picked[name] = transform[name];
  }
  return picked;
}
