/**
 * schema.org JSON-LD of the catalogue pages: Organization (home), BreadcrumbList (category and
 * product pages) and Product with its offer and rating. Plain objects; the layout serialises
 * them (BaseHead). URLs are absolute, on the site's origin.
 */
import { effectivePrice, type DisplayPrice } from '../../../lib/commerce/price.ts';
import { productPath } from '../../../lib/commerce/slug.ts';
import type { Product } from '../../../lib/commerce/types.ts';
import { htmlToText } from '../../html/sanitize-html.ts';

export type JsonLd = Record<string, unknown>;

const CONTEXT = 'https://schema.org';

function absolute(path: string, site: URL | string): string {
  return new URL(path, site).href;
}

/** spec §9: EUR; schema.org wants a dot-decimal price with its two decimals ("129.00"). */
export function schemaPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}

export interface OrganizationInfo {
  name: string;
  url: URL | string;
  logo?: string;
  email?: string;
  telephone?: string;
  address?: string;
  sameAs?: readonly string[];
}

export function organizationJsonLd(info: OrganizationInfo): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'Organization',
    name: info.name,
    url: String(info.url),
    ...(info.logo ? { logo: info.logo } : {}),
    ...(info.email ? { email: info.email } : {}),
    ...(info.telephone ? { telephone: info.telephone } : {}),
    ...(info.address ? { address: info.address } : {}),
    ...(info.sameAs && info.sameAs.length > 0 ? { sameAs: [...info.sameAs] } : {}),
  };
}

/** The shop's search (spec §2 `/resultats-de-recherche/{term}`) as a WebSite SearchAction. */
export function websiteJsonLd(name: string, site: URL | string): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'WebSite',
    name,
    url: absolute('/', site),
    potentialAction: {
      '@type': 'SearchAction',
      target: `${absolute('/resultats-de-recherche/', site)}{search_term_string}`,
      'query-input': 'required name=search_term_string',
    },
  };
}

/** BreadcrumbList from home to the page: `crumbs` without home, the last being the page. */
export function breadcrumbJsonLd(
  crumbs: readonly { name: string; path: string }[],
  site: URL | string,
  homeName: string,
): JsonLd {
  const all = [{ name: homeName, path: '/' }, ...crumbs];
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: all.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: absolute(crumb.path, site),
    })),
  };
}

export interface ProductJsonLdInput {
  product: Product;
  /** The displayed price of the default selection (spec §5). */
  price: DisplayPrice;
  /** Whether the default selection can be bought (spec §4). */
  inStock: boolean;
  sku: string;
  brandName?: string | undefined;
  images: readonly string[];
  /** Rating shown on the page; null when there is no review (no aggregateRating then). */
  rating: { value: number; count: number } | null;
  currency?: string;
}

export function productJsonLd(input: ProductJsonLdInput, site: URL | string): JsonLd {
  const { product, price, rating } = input;
  const url = absolute(productPath(product), site);
  const description = product.metaDescription || htmlToText(product.description);
  return {
    '@context': CONTEXT,
    '@type': 'Product',
    name: product.name,
    url,
    ...(input.sku ? { sku: input.sku } : {}),
    ...(description ? { description } : {}),
    ...(input.images.length > 0 ? { image: input.images.map((src) => absolute(src, site)) } : {}),
    ...(input.brandName ? { brand: { '@type': 'Brand', name: input.brandName } } : {}),
    ...(price.hidden
      ? {}
      : {
          offers: {
            '@type': 'Offer',
            url,
            price: schemaPrice(effectivePrice(price)),
            priceCurrency: input.currency ?? 'EUR',
            availability: input.inStock
              ? 'https://schema.org/InStock'
              : 'https://schema.org/OutOfStock',
            itemCondition: 'https://schema.org/NewCondition',
          },
        }),
    ...(rating && rating.count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: Math.round(rating.value * 10) / 10,
            reviewCount: rating.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}
