/**
 * Small view helpers of the catalogue pages (which picture, which rating to show). The rules
 * themselves live in `src/lib/commerce/`; these only choose among their results.
 */
import {
  guaranteedReviews,
  type BadgeKind,
  type ProductBadge,
} from '../../lib/commerce/custom-fields.ts';
import { rating } from '../../lib/commerce/rating.ts';
import type { Product, ProductImage } from '../../lib/commerce/types.ts';

/** Longest meta description search engines show in full. */
export const META_DESCRIPTION_LENGTH = 155;

/** Product images in display order: the thumbnail first, then by sort order. */
export function orderedImages(product: Pick<Product, 'images'>): ProductImage[] {
  return [...product.images].sort(
    (a, b) =>
      Number(b.isThumbnail) - Number(a.isThumbnail) || a.sortOrder - b.sortOrder || a.id - b.id,
  );
}

/** The largest source of a picture (zoom, else standard): astro:assets derives every width. */
export function imageSource(image: ProductImage): string {
  return image.urlZoom || image.urlStandard;
}

/** The card picture: the product's thumbnail image, alt from its description or the name. */
export function cardImage(
  product: Pick<Product, 'images' | 'name'>,
): { src: string; alt: string } | null {
  const image = orderedImages(product)[0];
  if (!image) return null;
  return { src: image.urlStandard || image.urlZoom, alt: image.description || product.name };
}

export interface ShownRating {
  /** 0 to 5. */
  value: number;
  count: number;
}

/**
 * The rating to show: the guaranteed-reviews one when the product carries it (spec §1), else
 * the platform's reviews (spec §5 rating); null when there is no review at all.
 */
export function productRating(
  product: Pick<Product, 'customFields' | 'reviewsRatingSum' | 'reviewsCount'>,
): ShownRating | null {
  const guaranteed = guaranteedReviews(product);
  if (guaranteed) return { value: guaranteed.average, count: guaranteed.total };
  if (product.reviewsCount <= 0) return null;
  return {
    value: rating(product.reviewsRatingSum, product.reviewsCount),
    count: product.reviewsCount,
  };
}

/** Badge tone of each kind of product badge (ui/Badge tones). */
export const BADGE_TONE = {
  discount: 'sale',
  corner: 'primary',
  'made-in-france': 'secondary',
  label: 'neutral',
} as const satisfies Record<BadgeKind, string>;

/**
 * The badges shown beside a picture: the discount is left to the price (which shows `-N%`),
 * and a label equal to an earlier one (a corner flag "Fabriqué en France" and the made in
 * France badge) is shown once.
 */
export function pictureBadges(badges: readonly ProductBadge[]): ProductBadge[] {
  const seen = new Set<string>();
  return badges.filter((badge) => {
    const key = badge.label.trim().toLocaleLowerCase('fr');
    if (badge.kind === 'discount' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
