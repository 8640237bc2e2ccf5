/**
 * What each pre-rendered catalogue page reads from the build's catalogue, as pure functions:
 * the pages call them, and the publisher (`src/shop/publish/`) calls the same to decide
 * which pages an event touches and to test that decision. A page's markup is a function of
 * what these return, the layout data and the content service's data (no other catalogue read).
 */
import { breadcrumbs, type Breadcrumb } from '../../../lib/commerce/category.ts';
import { technologies as technologyNames } from '../../../lib/commerce/custom-fields.ts';
import {
  listingPageCount,
  parseListingParams,
  type ListingParams,
} from '../../../lib/commerce/listing.ts';
import { applyListing, type ListingResult } from '../../../lib/commerce/listing-products.ts';
import { listingPagePaths } from '../../../lib/commerce/listing-seo.ts';
import { productPath } from '../../../lib/commerce/slug.ts';
import type { Product } from '../../../lib/commerce/types.ts';
import { technologiesFor } from '../../../lib/content/technologies.ts';
import type { Technology } from '../../../lib/content/types.ts';
import {
  bestSellers,
  onSale,
  productCategories,
  type Catalogue,
  type CatalogueBrand,
  type CatalogueCategory,
} from '../../loaders/catalogue-index.ts';
import { staticListingSource, type ListingSource } from '../../loaders/listing-source.ts';
import type { ItemNames } from './listing-markup.ts';
import { RELATED_COUNT, relatedProducts } from './related.ts';

/** Products of each home section (best sellers, on sale) and of `/produit`'s best sellers. */
export const HOME_PRODUCTS = 8;
/** Sub-categories a tile lists on the home page and `/produit` (`/categorie` lists them all). */
export const TILE_CHILDREN = 5;
/** Products shown on a brand page itself. */
export const BRAND_PRODUCTS = 24;

// --- category tiles (home, /categorie, /produit) ----------------------------------------------

/** A link to a category listing. */
export interface CategoryLink {
  name: string;
  path: string;
}

/** A shown root category's tile. */
export interface CategoryTile extends CategoryLink {
  /** Products listing the root category itself. */
  count: number;
  /** Its shown sub-categories, at most `maxChildren`. */
  children: CategoryLink[];
}

const linkTo = ({ name, path }: CategoryLink): CategoryLink => ({ name, path });

/** Shown root categories with their product count and shown sub-categories. */
export function categoryTiles(
  cat: Catalogue,
  maxChildren: number = Number.POSITIVE_INFINITY,
): CategoryTile[] {
  return cat.roots.map((root) => ({
    ...linkTo(root),
    count: cat.productsByCategory.get(root.id)?.length ?? 0,
    children: root.childIds
      .flatMap((id) => {
        const child = cat.categoryById.get(id);
        return child?.shown ? [linkTo(child)] : [];
      })
      .slice(0, maxChildren),
  }));
}

// --- home and /produit ---------------------------------------------------------------------------

/** The home page's product sections: best sellers, then products on sale that are not among them. */
export function homeProducts(cat: Catalogue): { best: Product[]; sale: Product[] } {
  const best = bestSellers(cat, HOME_PRODUCTS);
  return { best, sale: onSale(cat, HOME_PRODUCTS, best) };
}

// --- category listings ---------------------------------------------------------------------------

/** The categories with a pre-rendered listing `/c/...`: shown, with a path below `/c/`. */
export function listedCategories(cat: Catalogue): CatalogueCategory[] {
  return cat.categories.filter((category) => category.shown && category.path.length > '/c/'.length);
}

/** Whether a category has a pre-rendered listing (`listedCategories`). */
export function isListed(category: CatalogueCategory | undefined): category is CatalogueCategory {
  return category !== undefined && category.shown && category.path.length > '/c/'.length;
}

/** A listing's pre-rendered page: page 1 in the default order. */
export interface ListingPageOne {
  source: ListingSource;
  params: ListingParams;
  result: ListingResult;
}

export function listingPageOne(cat: Catalogue, category: CatalogueCategory): ListingPageOne {
  const source = staticListingSource(cat, category);
  const params = parseListingParams('');
  return { source, params, result: applyListing(source.products, params, source.brands) };
}

/** The listings' pages 2 to N in the default order and page size (`sitemap-listings.xml`). */
export function listingSitemapPaths(cat: Catalogue): string[] {
  const plain = parseListingParams('');
  return listedCategories(cat).flatMap((category) =>
    listingPagePaths(
      category.path,
      listingPageCount(cat.productsByCategory.get(category.id)?.length ?? 0, plain),
    ),
  );
}

// --- brands --------------------------------------------------------------------------------------

/** Brands with a corner page `/marque/{url}`: of two with the same slug, the first (alphabetical). */
export function brandPages(cat: Catalogue): { url: string; brand: CatalogueBrand }[] {
  const seen = new Set<string>();
  return cat.brands.flatMap((brand) => {
    const url = brand.path.slice('/marque/'.length);
    if (url === '' || seen.has(url)) return [];
    seen.add(url);
    return [{ url, brand }];
  });
}

export interface BrandPageData {
  /** Every product of the brand (the page says how many). */
  total: number;
  /** Its best sellers shown on the page. */
  shown: Product[];
  /** Root categories holding the brand's products, with their count. */
  roots: (CategoryLink & { count: number })[];
}

export function brandPageData(cat: Catalogue, brand: CatalogueBrand): BrandPageData {
  const products = cat.productsByBrand.get(brand.id) ?? [];
  return {
    total: products.length,
    shown: [...products]
      .sort((a, b) => b.totalSold - a.totalSold || a.id - b.id)
      .slice(0, BRAND_PRODUCTS),
    roots: cat.roots.flatMap((root) => {
      const count = (cat.productsByCategory.get(root.id) ?? []).filter(
        (product) => product.brandId === brand.id,
      ).length;
      return count > 0 ? [{ ...linkTo(root), count }] : [];
    }),
  };
}

// --- product pages -------------------------------------------------------------------------------

/** The path of each product page (`getStaticPaths` of `/p/[id]/[slug]`). */
export function productPageParams(product: Product): { id: string; slug: string } {
  const [, , id = '', slug = ''] = productPath(product).split('/');
  return { id, slug };
}

export interface ProductPageData {
  /** What the page shows of its brand (a link, the specs, the JSON-LD and analytics name). */
  brand: Pick<CatalogueBrand, 'name' | 'path'> | undefined;
  /** Trail of its most specific shown category (home and the product not included). */
  trail: Pick<Breadcrumb, 'name' | 'path'>[];
  related: Product[];
  technologies: Technology[];
}

/** What a product page shows besides the product: its brand, trail, related products, technologies. */
export function productPageData(
  cat: Catalogue,
  technologies: readonly Technology[],
  product: Product,
): ProductPageData {
  const category = productCategories(cat, product)[0];
  const brand = cat.brandById.get(product.brandId);
  return {
    brand: brand && { name: brand.name, path: brand.path },
    trail: category
      ? breadcrumbs(cat.shownTree, category.id).map((c) => ({ name: c.name, path: c.path }))
      : [],
    related: relatedProducts(cat, product, RELATED_COUNT),
    technologies: technologiesFor(technologies, technologyNames(product)),
  };
}

/**
 * The names a list of the catalogue's cards gives its items (GA4 item_brand, item_category):
 * the product's brand and its main category (the most specific shown one, as its page's trail).
 */
export function catalogueItemNames(cat: Catalogue): ItemNames {
  return (product) => ({
    brand: cat.brandById.get(product.brandId)?.name,
    category: productCategories(cat, product)[0]?.name,
  });
}
