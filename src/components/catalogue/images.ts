/**
 * astro:assets `getImage` memoised per source and size. The same pictures recur on thousands
 * of pages (a product's card is on its category pages and on the related products of others),
 * and their transforms and srcsets are the same each time: computing them once keeps the
 * build linear in pictures, not in cards. The memo is the process's (image-memo.ts), so a
 * build's render threads can hand theirs to the main thread.
 */
import { getImage } from 'astro:assets';
import { imageMemo, MAX_IMAGES } from './image-memo.ts';

export interface CatalogueImageOptions {
  src: string;
  width: number;
  height: number;
  widths?: readonly number[] | undefined;
  sizes?: string | undefined;
}

type ImageResult = Awaited<ReturnType<typeof getImage>>;

export function catalogueImage(options: CatalogueImageOptions): Promise<ImageResult> {
  const key = `${options.src}|${options.width}x${options.height}|${options.widths?.join(',') ?? ''}|${options.sizes ?? ''}`;
  const cache = imageMemo();
  let image = cache.get(key);
  if (!image) {
    if (cache.size >= MAX_IMAGES) cache.clear();
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
