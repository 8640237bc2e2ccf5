/**
 * Astro's picture registry of a build, `globalThis.astroAsset` (astro/dist/assets), as the shop
 * reads and sets it, typed in one place:
 * - `addStaticImage`: present while the build pre-renders, then removed. A page's `getImage`
 *   registers each picture through it and gets the URL of the file Astro will emit;
 * - `staticImages`: every picture registered, by source, with each transform's final path;
 * - `referencedImages`: the project's own pictures the pages showed (kept in the output).
 *
 * Used by the render threads (parallel-prerender.ts, prerender-worker.ts), the image service,
 * the release's picture table (integrations/listing-store.ts) and the kept build's publisher
 * (src/server/publish/publish-pictures.ts). An Astro upgrade that changes it changes this file.
 */

/** Astro's `addStaticImage`: a transform in, the URL of its emitted file out. */
export type AddStaticImage = (
  options: { src: unknown } & Record<string, unknown>,
  hashProperties: unknown,
  originalFsPath: unknown,
) => string;

export interface AstroAsset {
  addStaticImage?: AddStaticImage;
  staticImages?: Map<
    string,
    { transforms: Map<string, { finalPath: string; transform: Record<string, unknown> }> }
  >;
  referencedImages?: Set<string>;
}

export interface AstroAssetScope {
  astroAsset?: AstroAsset;
}

/** The registry of `scope` (default this process or thread), created empty if absent. */
export function astroAsset(scope: AstroAssetScope = globalThis as AstroAssetScope): AstroAsset {
  return (scope.astroAsset ??= {});
}

/** Astro's `addStaticImage` while the build pre-renders, else null. */
export function currentAddStaticImage(): AddStaticImage | null {
  const add: unknown = (globalThis as AstroAssetScope).astroAsset?.addStaticImage;
  return typeof add === 'function' ? (add as AddStaticImage) : null;
}
