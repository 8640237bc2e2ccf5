/**
 * A picture that cannot be fetched never stops a build or a publish (one bad value
 * never stops publishing). Astro's image step fetches each remote picture the pages showed
 * (`astro/dist/assets/build/remote.js` `loadRemoteImage`) and fails the whole build when one
 * answers anything but 200 (`generatePages` throws the errors it collected); the kept build's
 * publisher did the same (`src/server/publish/publish-pictures.ts`).
 *
 * Instead, such a picture's variants are encoded from the shop's placeholder picture
 * (`public/og-default.png`, `PLACEHOLDER_PICTURE`) into the files its pages already name: the
 * page shows the placeholder, the rest of the site goes live, and one line names the picture,
 * the products showing it and the reason (`logRefused`). The next build fetches it again.
 *
 * - At build, `replaceUnreachablePictures` runs once the pages are rendered and before Astro's
 *   image step (`src/server/render-threads/parallel-prerender.ts`, the prerenderer's teardown): each
 *   remote source of Astro's list (`globalThis.astroAsset.staticImages`) is fetched once the
 *   way Astro fetches it (`probeRemotePicture`: allowed hosts, redirects checked), with a
 *   deadline; an unreachable one is moved under the placeholder's file, which Astro's step
 *   then reads instead of fetching (`loadImage` reads a path that is not remote as a file).
 *   A source Astro's step will not fetch (its variants in Astro's cache, `astroWillFetch`) is
 *   not probed.
 * - A source that answers 200 but is not a raster picture (an SVG, an HTML page: judged by its
 *   bytes, `raster-format.ts`) or that the encoder cannot decode would fail Astro's step too:
 *   the image service encodes the placeholder in its place (`encodeOrPlaceholder`, from the
 *   moment the teardown sets the build's placeholder, `setBuildPlaceholder`).
 * - At publish, `publish-pictures.ts` encodes the placeholder the same way when a fetch or an
 *   encode fails.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fetchWithRedirects, isRemoteAllowed } from 'astro/assets/utils';
import type { AstroAsset } from './astro-asset.ts';
import { isRemotePicture } from './picture-key.ts';
import { rasterFormat } from './raster-format.ts';
import { logRefused } from '../../shop/config/refused.ts';

/** The shop's placeholder picture: a file of `public/` (so of the client folder too). */
export const PLACEHOLDER_PICTURE = 'og-default.png';

/** How long a picture's fetch may take before it counts as unreachable (ms). */
export const PICTURE_PROBE_TIMEOUT_MS = 15_000;

/** Sources probed at once. */
const PROBE_CONCURRENCY = 8;

type ImageConfig = Parameters<typeof isRemoteAllowed>[1];

/** Why `src` cannot be fetched (a status, a network error, the deadline), or null when it can. */
export type ProbePicture = (src: string) => Promise<string | null>;

/**
 * Fetches `src` as Astro's image step does (allowed hosts only, each redirect checked) within
 * `timeoutMs`, the body dropped unread: null when it answers 200.
 */
export async function probeRemotePicture(
  src: string,
  imageConfig: ImageConfig,
  timeoutMs: number = PICTURE_PROBE_TIMEOUT_MS,
): Promise<string | null> {
  if (!isRemoteAllowed(src, imageConfig)) return 'not on an allowed picture host';
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetchWithRedirects({
      url: src,
      imageConfig,
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal }),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? null : `answered ${String(response.status)}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return signal.aborted
      ? `no answer within ${String(timeoutMs)} ms`
      : `could not be fetched (${message.slice(0, 200)})`;
  }
}

type StaticImage = NonNullable<AstroAsset['staticImages']> extends Map<string, infer V> ? V : never;

/**
 * Whether Astro's image step will fetch the source of `entry` (`astro/dist/assets/build/
 * generate.js`): unless every variant has an entry in its cache (`{cacheDir}/assets/{file}.json`)
 * that is fresh, or that it can revalidate (an ETag or a Last-Modified: a failed revalidation
 * keeps the cached file). A source it will not fetch cannot fail the build: it is not probed,
 * and a rebuild with a warm cache fetches nothing more than before.
 */
export function astroWillFetch(
  entry: StaticImage,
  assetsCacheDir: string,
  now: number = Date.now(),
): boolean {
  for (const { finalPath } of entry.transforms.values()) {
    const meta = path.join(assetsCacheDir, `${path.posix.basename(finalPath)}.json`);
    let cached: { expires?: unknown; etag?: unknown; lastModified?: unknown };
    try {
      cached = JSON.parse(readFileSync(meta, 'utf8')) as typeof cached;
    } catch {
      return true;
    }
    const fresh = typeof cached.expires === 'number' && cached.expires > now;
    if (typeof cached.expires !== 'number') return true;
    if (!fresh && !cached.etag && !cached.lastModified) return true;
  }
  return false;
}

/** The products (ids) whose pictures include `src`, for the log line. */
export type PictureOwners = (src: string) => readonly (number | string)[];

/** The log line's wording of a picture left out (`logRefused`). */
export function logUnreachablePicture(
  src: string,
  reason: string,
  owners: readonly (number | string)[],
  shown: string,
): void {
  const who =
    owners.length === 0 ? 'picture' : `picture of product ${owners.slice(0, 5).join(', ')}`;
  logRefused(who, JSON.stringify(src.slice(0, 300)), `${reason}; ${shown}`);
}

/**
 * Moves every remote source of `images` that `probe` finds unreachable under `placeholder`
 * (a path Astro's image step reads as a file: relative to its server root), keeping its
 * variants and their files, so Astro encodes the placeholder into them. Returns the sources
 * moved, with why. `images` is Astro's own list, changed in place.
 */
export async function replaceUnreachablePictures(
  images: NonNullable<AstroAsset['staticImages']>,
  placeholder: string,
  probe: ProbePicture,
  owners: PictureOwners = () => [],
  willFetch: (entry: StaticImage) => boolean = () => true,
): Promise<{ src: string; reason: string }[]> {
  const sources = [...images].flatMap(([src, entry]) =>
    isRemotePicture(src) && willFetch(entry) ? [src] : [],
  );
  const failed: { src: string; reason: string }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let src = sources[next++]; src !== undefined; src = sources[next++]) {
      const reason = await probe(src);
      if (reason !== null) failed.push({ src, reason });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, sources.length) }, worker));
  for (const { src, reason } of failed) {
    const entry = images.get(src);
    if (entry === undefined) continue;
    images.delete(src);
    // Several unreachable sources: their variants (distinct files) under one key.
    const moved = images.get(placeholder);
    if (moved === undefined) images.set(placeholder, { transforms: new Map(entry.transforms) });
    else for (const [hash, variant] of entry.transforms) moved.transforms.set(hash, variant);
    logUnreachablePicture(src, reason, owners(src), 'its pages show the placeholder picture');
  }
  return failed;
}

/** The products of `products` showing `src` (any of its sizes). */
export function productsShowing(
  products: readonly {
    id: number;
    images: readonly { urlStandard: string; urlZoom: string; urlThumbnail: string }[];
  }[],
): PictureOwners {
  let index: Map<string, number[]> | null = null;
  return (src) => {
    if (index === null) {
      const built = new Map<string, number[]>();
      for (const product of products) {
        for (const image of product.images) {
          for (const url of new Set([image.urlStandard, image.urlZoom, image.urlThumbnail])) {
            const ids = built.get(url);
            if (ids === undefined) built.set(url, [product.id]);
            else if (ids.at(-1) !== product.id) ids.push(product.id);
          }
        }
      }
      index = built;
    }
    return index.get(src) ?? [];
  };
}

/** The build's placeholder picture and who shows which source, once the pages are rendered. */
export interface BuildPlaceholder {
  /** Absolute path of the placeholder picture file. */
  file: string;
  owners: PictureOwners;
}

// Set by the build's integration (Node's module instance), read by the image service (the
// pre-render bundle's instance): one slot per process.
const PLACEHOLDER_SLOT = Symbol.for('literie.build-placeholder-picture');
type PlaceholderHolder = typeof globalThis & {
  [PLACEHOLDER_SLOT]?: BuildPlaceholder | undefined;
};

/** Sets (or, with null, clears) the placeholder Astro's image step encodes a bad source into. */
export function setBuildPlaceholder(placeholder: BuildPlaceholder | null): void {
  const holder = globalThis as PlaceholderHolder;
  holder[PLACEHOLDER_SLOT] = placeholder ?? undefined;
}

/** The build's placeholder while Astro's image step runs, else null (dev, the server). */
export function buildPlaceholder(): BuildPlaceholder | null {
  return (globalThis as PlaceholderHolder)[PLACEHOLDER_SLOT] ?? null;
}

/**
 * `encode(bytes)`, or, when the bytes are not a raster picture or cannot be encoded, the
 * encode of the placeholder picture (read by `placeholder`), logged with the source, its
 * products and the reason. An SVG is never encoded: it is not a raster picture.
 */
export async function encodeOrPlaceholder<T>(
  src: string,
  bytes: Uint8Array,
  encode: (bytes: Uint8Array) => Promise<T>,
  placeholder: () => Uint8Array,
  owners: PictureOwners = () => [],
): Promise<T> {
  let reason: string;
  if (rasterFormat(bytes) === null) {
    reason = 'is not a raster picture (judged by its bytes)';
  } else {
    try {
      return await encode(bytes);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reason = `could not be encoded (${message.slice(0, 200)})`;
    }
  }
  logUnreachablePicture(src, reason, owners(src), 'its pages show the placeholder picture');
  return encode(placeholder());
}
