/**
 * astro:assets `getImage` memoised per source and size. The same pictures recur on thousands
 * of pages (a product's card is on its category pages and on the related products of others),
 * and their transforms and srcsets are the same each time: computing them once keeps the
 * build linear in pictures, not in cards.
 */
import { getImage } from 'astro:assets';

/** At most this many pictures (the on-demand listing view lives as long as the server). */
const MAX_IMAGES = 5_000;

export interface CatalogueImageOptions {
  src: string;
  width: number;
  height: number;
  widths?: readonly number[] | undefined;
  sizes?: string | undefined;
}

type ImageResult = Awaited<ReturnType<typeof getImage>>;

const memo = new Map<string, Promise<ImageResult>>();

export function catalogueImage(options: CatalogueImageOptions): Promise<ImageResult> {
  const key = `${options.src}|${options.width}x${options.height}|${options.widths?.join(',') ?? ''}|${options.sizes ?? ''}`;
  let image = memo.get(key);
  if (!image) {
    if (memo.size >= MAX_IMAGES) memo.clear();
    image = getImage({
      src: options.src,
      width: options.width,
      height: options.height,
      ...(options.widths ? { widths: [...options.widths] } : {}),
      ...(options.sizes ? { sizes: options.sizes } : {}),
    });
    memo.set(key, image);
    image.catch(() => memo.delete(key));
  }
  return image;
}
