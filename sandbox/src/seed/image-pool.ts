/** Names and paths of the pool of product pictures the sandbox draws (see images.ts). */
import { FAMILIES, PLAIN_TINTS, type SceneKey } from './catalogue.ts';
import { slugify } from './random.ts';

/** Sizes served, as BigCommerce names its stencil folders: zoom, standard, thumbnail, tiny. */
export const IMAGE_SIZES = ['1280x1280', '800x800', '340x340', '80x80'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export type View = 'a' | 'b';

export interface PoolImage {
  key: string;
  scene: SceneKey;
  hex: string;
  view: View;
}

export function imageKey(scene: SceneKey, colourName: string, view: View): string {
  return `${scene}-${slugify(colourName)}-${view}`;
}

/** Path below the sandbox origin (`/images/800x800/matelas-blanc-a.jpg`). */
export function imagePath(size: ImageSize, key: string): string {
  return `/images/${size}/${key}.jpg`;
}

/** Every picture products may reference: each palette colour, or two views of each tint. */
export function imagePool(): PoolImage[] {
  const pool = new Map<string, PoolImage>();
  for (const family of Object.values(FAMILIES)) {
    const palette = 'palette' in family ? family.palette : undefined;
    if (palette) {
      for (const colour of palette) {
        const key = imageKey(family.scene, colour.name, 'a');
        pool.set(key, { key, scene: family.scene, hex: colour.hex, view: 'a' });
      }
    } else {
      for (const tintKey of family.tints) {
        const tint = PLAIN_TINTS[tintKey];
        if (!tint) continue;
        for (const view of ['a', 'b'] as const) {
          const key = imageKey(family.scene, tint.name, view);
          pool.set(key, { key, scene: family.scene, hex: tint.hex, view });
        }
      }
    }
  }
  return [...pool.values()];
}
