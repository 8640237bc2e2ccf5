/**
 * astro:assets `getImage` memoised per source and size. The same pictures recur on thousands
 * of pages (a product's card is on its category pages and on the related products of others),
 * and their transforms and srcsets are the same each time: computing them once keeps the
 * build linear in pictures, not in cards.
 *
 * A picture is of one of the shop's kinds (`src/lib/picture-variants.ts`), always WebP: the
 * picture proxy `/_image` encodes exactly the variants of that list, nothing else.
 */
import { getImage } from 'astro:assets';
import { PICTURE_FORMAT, type PictureKind } from '../picture-variants.ts';

/** At most this many pictures (the on-demand listing view lives as long as the server). */
const MAX_IMAGES = 5_000;

export interface CatalogueImageOptions {
  src: string;
  kind: PictureKind;
  /** With the kind's srcset (default); false: its displayed size only (thumbnails). */
  srcset?: boolean | undefined;
  sizes?: string | undefined;
}

type ImageResult = Awaited<ReturnType<typeof getImage>>;

const memo = new Map<string, Promise<ImageResult>>();

export function catalogueImage(options: CatalogueImageOptions): Promise<ImageResult> {
  const { kind } = options;
  const widths = options.srcset === false ? null : kind.widths;
  const key = `${options.src}|${kind.width}x${kind.height}|${widths?.join(',') ?? ''}|${options.sizes ?? ''}`;
  let image = memo.get(key);
  if (!image) {
    if (memo.size >= MAX_IMAGES) memo.clear();
    image = getImage({
      src: options.src,
      width: kind.width,
      height: kind.height,
      format: PICTURE_FORMAT,
      ...(widths ? { widths: [...widths] } : {}),
      ...(options.sizes ? { sizes: options.sizes } : {}),
    });
    memo.set(key, image);
    image.catch(() => memo.delete(key));
  }
  return image;
}
