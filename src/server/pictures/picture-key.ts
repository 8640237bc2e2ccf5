/**
 * A remote picture variant and its file in the release, one home for each rule:
 * - `isRemotePicture`: a source fetched from a picture host (not a file of the project);
 * - `transformKey`: a variant as a key, its source and the properties its encoded output
 *   depends on (what sharp's `transform` reads besides `src`). Two transforms with the same key
 *   give the same bytes, whatever else they carry (`loading`, `sizes`...). The image service
 *   matches pre-encoded variants by it, and the release's picture table (`listing-store.ts`)
 *   finds by it the file the build encoded for a variant an on-demand page shows;
 * - `pictureUrl` / `pictureFile`: the URL a page shows for a file Astro emitted, and back.
 */
import path from 'node:path';

/** A picture source on a picture host (`https://cdn...`), not a file of the project. */
export function isRemotePicture(src: unknown): src is string {
  return typeof src === 'string' && /^https?:\/\//i.test(src);
}
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

const PLACEHOLDER = 'astro://placeholder';

/**
 * The URL pages show for a picture Astro emitted at `finalPath` (`/_astro/lit bébé_1.webp` →
 * `/_astro/lit%20b%C3%A9b%C3%A9_1.webp`), spelled as Astro's `addStaticImage` spells it under a
 * base of `/` with no assets prefix.
 */
export function pictureUrl(finalPath: string): string {
  return new URL(encodeURI(finalPath), PLACEHOLDER).href.slice(PLACEHOLDER.length);
}

/**
 * The file a picture URL names in the release (`/_astro/a_1.webp?x` → `{client}/_astro/a_1.webp`):
 * always directly inside the assets folder, else an error.
 */
export function pictureFile(url: string, clientDir: string, assetsDir: string): string {
  const name = path.posix.basename(decodeURI(new URL(url, 'http://picture.invalid').pathname));
  const folder = path.resolve(clientDir, assetsDir);
  const file = path.resolve(folder, name);
  if (name === '' || path.dirname(file) !== folder) {
    throw new Error(`the picture URL ${url} names no file of ${assetsDir}`);
  }
  return file;
}
