/**
 * The memo of catalogue pictures (`getImage` results by source and size, images.ts), kept on
 * `globalThis`: one per process, whatever bundle asks. A build's render thread hands its
 * pictures to the main thread when it stops (parallel-prerender.ts), so the main thread's kept
 * build, which renders pages again after the build (scripts/lib/page-publisher.ts), gives them
 * the build's URLs: once the build is done, Astro emits no more pictures.
 */
import type { GetImageResult } from 'astro';

/** At most this many pictures (the on-demand listing view lives as long as the server). */
export const MAX_IMAGES = 5_000;

const SLOT = Symbol.for('literie.catalogue-images');
const holder = globalThis as { [SLOT]?: Map<string, Promise<GetImageResult>> };

/** The process's memo. */
export function imageMemo(): Map<string, Promise<GetImageResult>> {
  return (holder[SLOT] ??= new Map<string, Promise<GetImageResult>>());
}

/** The pictures computed so far, settled (a failed one is left out). */
export async function settledImages(): Promise<[string, GetImageResult][]> {
  const settled = await Promise.all(
    [...imageMemo()].map(async ([key, image]): Promise<[string, GetImageResult][]> => {
      try {
        return [[key, await image]];
      } catch {
        return [];
      }
    }),
  );
  return settled.flat();
}

/** Takes pictures another thread of the build computed, keeping this thread's own. */
export function adoptImages(entries: readonly [string, GetImageResult][]): void {
  const memo = imageMemo();
  for (const [key, image] of entries) {
    if (memo.size >= MAX_IMAGES) return;
    if (!memo.has(key)) memo.set(key, Promise.resolve(image));
  }
}
