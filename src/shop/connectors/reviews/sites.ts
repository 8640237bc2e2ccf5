/**
 * The group's eight brand sites at the guaranteed-reviews provider (spec §3: each carries a
 * siteId, two have none, and a carousel iframe id). The shop shows the site chosen by
 * `REVIEWS_SITE` (config.ts); a brand without a siteId shows no rating and makes no call.
 */

export interface ReviewSite {
  /** Key of `REVIEWS_SITE`. */
  brand: string;
  /** The provider's site key (`{base}/{siteId}/site`), null when the brand has none. */
  siteId: string | null;
  /** Id of the provider's reviews carousel iframe (the footer's widget). */
  carouselIframeId: string;
}

/** The provider's public page of a brand site (the reassurance rating's link). */
export function reviewsPageUrl(site: ReviewSite): string {
  return `https://www.societe-des-avis-garantis.fr/${site.brand}/`;
}

export const REVIEW_SITES: readonly ReviewSite[] = Object.freeze([
  { brand: 'literie', siteId: '8f3c2a91d4b7e605', carouselIframeId: '10421' },
  { brand: 'dormelune', siteId: '2b7e91c04fa3d158', carouselIframeId: '10422' },
  { brand: 'nuit-douce', siteId: 'e41d7a05c98b3f62', carouselIframeId: '10423' },
  { brand: 'plume-et-lin', siteId: '5c0f8e3b71a2d94e', carouselIframeId: '10424' },
  { brand: 'sommeil-durable', siteId: '93a6d2f18e4c07b5', carouselIframeId: '10425' },
  { brand: 'atelier-matelas', siteId: 'd7b4e0a2c1f95836', carouselIframeId: '10426' },
  { brand: 'boutique-revendeurs', siteId: null, carouselIframeId: '10427' },
  { brand: 'outlet', siteId: null, carouselIframeId: '10428' },
]);

/** The real provider's public API and widget (overridden for the sandbox). */
export const DEFAULT_REVIEWS_API_URL = 'https://api.guaranteed-reviews.com/public/v3/reviews';
export const DEFAULT_REVIEWS_WIDGET_URL =
  'https://www.societe-des-avis-garantis.fr/wp-content/plugins/ag-core/widgets/iframe/2/h/';

export class ReviewsConfigError extends Error {
  readonly code = 'INVALID_REVIEWS_CONFIG';
}

/** The brand site of `REVIEWS_SITE` (default: the first); an unknown key is a startup error. */
export function reviewSite(brand: string | undefined): ReviewSite {
  const key = (brand ?? '').trim();
  const site = key === '' ? REVIEW_SITES[0] : REVIEW_SITES.find((s) => s.brand === key);
  if (site === undefined) {
    throw new ReviewsConfigError(
      `REVIEWS_SITE: "${key}" is not one of ${REVIEW_SITES.map((s) => s.brand).join(', ')}`,
    );
  }
  return site;
}

/** The carousel iframe's address: the widget page with the site's iframe id. */
export function reviewsWidgetUrl(widgetBase: string, site: ReviewSite): string {
  const url = new URL(widgetBase);
  url.searchParams.set('id', site.carouselIframeId);
  return url.href;
}
