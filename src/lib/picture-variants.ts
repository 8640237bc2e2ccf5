/**
 * The picture variants the shop shows, one list for the components that ask for pictures
 * (`CatalogueImage.astro` through `images.ts`) and the picture proxy `/_image` that encodes
 * them on request (`src/server/pictures/image-proxy.ts`): the proxy encodes exactly these and
 * answers 400 to anything else, so a page can never ask for a variant the proxy refuses, and
 * nobody can make the proxy encode a size no page shows.
 *
 * A picture kind is its displayed size (`width` × `height`) and the widths of its srcset. Each
 * srcset width keeps the kind's aspect ratio, with the height Astro's image service computes
 * (`Math.round(width / (kindWidth / kindHeight))`, its `getSrcSet`): `pictureVariants` lists
 * every (width, height) pair that results. Every variant is WebP at the encoder's default
 * quality, fitted as Astro's sharp service fits (no `fit`, `position` or `background`).
 */

export interface PictureKind {
  /** Displayed size: the `width`/`height` attributes and the `src` variant. */
  readonly width: number;
  readonly height: number;
  /** The srcset's widths (`w` descriptors). */
  readonly widths: readonly number[];
}

/** Card picture: 340×340 (spec §9), and twice that for dense screens. */
export const CARD_IMAGE = { width: 340, height: 340, widths: [340, 680] } as const;
/** Gallery picture: the card's 680 px plus a 1024 px one for phones at 3× and desktops. */
export const GALLERY_IMAGE = { width: 1024, height: 1024, widths: [680, 1024] } as const;
/**
 * A sleep-content picture (4:3), the same variants on its card and on its detail page: each
 * variant is one more encode of every picture at build (the card and the detail used to ask
 * for six different widths and two fallbacks, 8 encodes a picture; now 4).
 */
export const SLEEP_IMAGE = { width: 480, height: 360, widths: [320, 480, 720, 960] } as const;
/** A technology block's picture (product pages): 96 px, twice that for dense screens. */
export const TECHNOLOGY_IMAGE = { width: 96, height: 96, widths: [96, 192] } as const;

/** Every picture kind of the shop. A component shows pictures of these kinds only. */
export const PICTURE_KINDS: readonly PictureKind[] = [
  CARD_IMAGE,
  GALLERY_IMAGE,
  SLEEP_IMAGE,
  TECHNOLOGY_IMAGE,
];

/** The one output format: every variant, at build and on request, is a WebP. */
export const PICTURE_FORMAT = 'webp';
export const PICTURE_FORMATS: readonly string[] = [PICTURE_FORMAT];
/**
 * Qualities a page asks for: none (the encoder's default), so a `q` parameter is refused. A
 * quality added to `images.ts` must be added here.
 */
export const PICTURE_QUALITIES: readonly number[] = [];

export interface PictureSize {
  width: number;
  height: number;
}

/** The (width, height) of each variant of `kind`: its displayed size, then its srcset's. */
export function kindVariants(kind: PictureKind): PictureSize[] {
  const ratio = kind.width / kind.height;
  return [
    { width: kind.width, height: kind.height },
    ...kind.widths.map((width) => ({ width, height: Math.round(width / ratio) })),
  ];
}

/** Every (width, height) the shop shows, once each. */
export function pictureVariants(kinds: readonly PictureKind[] = PICTURE_KINDS): PictureSize[] {
  const seen = new Map<string, PictureSize>();
  for (const kind of kinds) {
    for (const size of kindVariants(kind)) seen.set(`${size.width}x${size.height}`, size);
  }
  return [...seen.values()];
}

const VARIANT_KEYS = new Set(pictureVariants().map((size) => `${size.width}x${size.height}`));

/** Whether the shop shows a variant of this width and height. */
export function isPictureVariant(width: number, height: number): boolean {
  return VARIANT_KEYS.has(`${width}x${height}`);
}
