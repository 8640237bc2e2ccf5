/**
 * Small view helpers of the catalogue pages (which picture, which rating to show). The rules
 * themselves live in `src/lib/commerce/`; these only choose among their results.
 */
import {
  guaranteedReviews,
  productBadges,
  type BadgeKind,
  type ProductBadge,
} from '../../../lib/commerce/custom-fields.ts';
import { productOffer, variantPath, type VariantFilter } from '../../../lib/commerce/offer.ts';
import type { DisplayPrice } from '../../../lib/commerce/price.ts';
import { productPath } from '../../../lib/commerce/slug.ts';
import { truncateText } from '../../../lib/commerce/text.ts';
import { rating } from '../../../lib/commerce/rating.ts';
import type { Product, ProductImage, Variant } from '../../../lib/commerce/types.ts';
import { htmlToText } from '../../html/sanitize-html.ts';

/** Longest meta description search engines show in full. */
export const META_DESCRIPTION_LENGTH = 155;

/** Product images in display order: the thumbnail first, then by sort order. */
export function orderedImages(product: Pick<Product, 'images'>): ProductImage[] {
  return [...product.images].sort(
    (a, b) =>
      Number(b.isThumbnail) - Number(a.isThumbnail) || a.sortOrder - b.sortOrder || a.id - b.id,
  );
}

/**
 * The one source of a picture for every size (zoom, else standard): cards, gallery and
 * thumbnails then share their transforms (the 340 and 680 px ones), so the build fetches and
 * transforms each picture once per size, whichever pages show it.
 */
export function imageSource(image: ProductImage): string {
  return image.urlZoom || image.urlStandard;
}

/** Props of a product card (ProductCard.astro, ProductCardMarkup.astro). */
export interface ProductCardProps {
  product: Product;
  /** Above the fold: the image loads eagerly (first cards of a listing). */
  eager?: boolean;
  /** The likely LCP image: fetched with high priority. */
  priority?: boolean;
  /** Level of the title heading (default 3: cards sit under a section h2). */
  headingLevel?: 2 | 3;
  /**
   * spec §2 "Resellers get an isReseller flag on cards": the reseller area's cards show the
   * product's reference (what a seller quotes to a client) and no wishlist heart.
   */
  isReseller?: boolean;
  /**
   * The size and colour filters of the listing showing the card (`variantFilter`): the card
   * shows the price of the matching variants, links to the page opening on the one it prices
   * and adds that one to the cart (the price shown is the price paid).
   */
  filter?: VariantFilter;
  class?: string;
}

/**
 * The name a product card's markup is shared under (ProductCard.astro, ui/memo.ts, with the
 * product as its scope): every input of the markup besides the product, whatever the order
 * they were given in.
 */
export function cardMarkupKey(options: Omit<ProductCardProps, 'product'>): string {
  const given = Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1));
  return `card|${JSON.stringify(given)}`;
}

/** A listing's first cards load their picture eagerly (above the fold on a phone and a desktop). */
export const LISTING_EAGER_CARDS = 4;
/** A listing's first cards whose picture is fetched first (the likely LCP). */
export const LISTING_PRIORITY_CARDS = 2;

/**
 * The name a shopper's listing card at `index` is shared under: the options CategoryListing
 * gives ProductCard (the listing's variant filter when it sets one), and the reseller flag
 * ProductCard adds.
 */
export function listingCardKey(index: number, filter?: VariantFilter): string {
  return cardMarkupKey({
    eager: index < LISTING_EAGER_CARDS,
    priority: index < LISTING_PRIORITY_CARDS,
    isReseller: false,
    ...(filter === undefined ? {} : { filter }),
  });
}

/** The picture kinds of the shop, one list with the picture proxy's (picture-variants.ts). */
export {
  CARD_IMAGE,
  GALLERY_IMAGE,
  SLEEP_IMAGE,
  TECHNOLOGY_IMAGE,
} from '../../../lib/picture-variants.ts';

/** The card picture: the product's thumbnail image, alt from its description or the name. */
export function cardImage(
  product: Pick<Product, 'images' | 'name'>,
): { src: string; alt: string } | null {
  const image = orderedImages(product)[0];
  if (!image) return null;
  return { src: imageSource(image), alt: image.description || product.name };
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

/** The badges shown beside a picture: the discount is left to the price (which shows `-N%`). */
export function pictureBadges(badges: readonly ProductBadge[]): ProductBadge[] {
  return badges.filter((badge) => badge.kind !== 'discount');
}

/** What a product card shows, computed once per product (cards recur on many pages). */
export interface CardView {
  href: string;
  /**
   * The price the cart charges for the variant it prices (`productOffer`, offer.ts), the one
   * listings sort and filter on (spec §5).
   */
  price: DisplayPrice;
  /** The counted variants are priced differently: the price is a "from" price. */
  from: boolean;
  /**
   * Under a variant filter, the matching variant the card prices, links to and adds; null
   * otherwise (the card adds the default variant, spec §2, §4).
   */
  variant: Variant | null;
  badges: ProductBadge[];
  image: { src: string; alt: string } | null;
  rating: ShownRating | null;
  description: string;
}

const cardViews = new WeakMap<Product, Map<string, CardView>>();

/**
 * The card of a product: the price the cart charges, lowest among the variants a shopper can
 * buy (matching `filter` when given), "from" when they cost more or less (`productOffer`,
 * offer.ts), its link (to that variant under a filter), badges, picture, rating.
 */
export function cardView(product: Product, filter?: VariantFilter): CardView {
  let views = cardViews.get(product);
  if (views === undefined) {
    views = new Map();
    cardViews.set(product, views);
  }
  const key = filter === undefined ? '' : JSON.stringify(filter);
  let view = views.get(key);
  if (!view) {
    const offer = productOffer(product, filter);
    const shown = offer.narrowed ? offer.variant : null;
    const path = productPath(product);
    view = {
      href: shown === null ? path : variantPath(path, shown),
      price: offer.price,
      from: offer.from,
      variant: shown,
      badges: pictureBadges(productBadges(product)),
      image: cardImage(product),
      rating: productRating(product),
      description: truncateText(htmlToText(product.description)),
    };
    views.set(key, view);
  }
  return view;
}
