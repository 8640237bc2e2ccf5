/**
 * astro:assets `getImage` memoised per source and size. The same pictures recur on thousands
 * of pages (a product's card is on its category pages and on the related products of others),
 * and their transforms and srcsets are the same each time: computing them once keeps the
 * build linear in pictures, not in cards.
 */
import { getImage } from 'astro:assets';

export interface CatalogueImageOptions {
  src: string;
  width: number;
  height: number;
  widths?: readonly number[] | undefined;
  sizes?: string | undefined;
}

type ImageResult = Awaited<ReturnType<typeof getImage>>;

// Bounded for the on-demand listing view, which lives as long as the server.
const MAX_ENTRIES = 5_000;
const cache = new Map<string, Promise<ImageResult>>();

export function catalogueImage(options: CatalogueImageOptions): Promise<ImageResult> {
  const key = `${options.src}|${options.width}x${options.height}|${options.widths?.join(',') ?? ''}|${options.sizes ?? ''}`;
  let image = cache.get(key);
  if (!image) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    image = getImage({
      src: options.src,
      width: options.width,
      height: options.height,
      ...(options.widths ? { widths: [...options.widths] } : {}),
      ...(options.sizes ? { sizes: options.sizes } : {}),
    });
    cache.set(key, image);
    image.catch(() => cache.delete(key));
  }
  return image;
}
