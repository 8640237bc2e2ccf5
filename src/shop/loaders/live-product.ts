/**
 * A product page rendered on request ("a product created in the commerce service
 * after the last build renders on request at `/p/{id}/{slug}` instead of answering 404, until
 * the next build"): the product read live, its brand, its breadcrumb trail in the shown
 * category tree of the layout, its related products (those it names) and its technology
 * blocks. Reads go through a short cache (60 s, single flight, bounded), so repeated requests
 * for one id cost one upstream read a minute. Server only.
 */
import type { BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import { getBrands, getProductById, getProductsById } from '../connectors/bigcommerce/index.ts';
import { createCache } from '../connectors/http/cache.ts';
import { breadcrumbs } from '../../lib/commerce/category.ts';
import { technologies as technologyNames } from '../../lib/commerce/custom-fields.ts';
import { brandPath, productPath } from '../../lib/commerce/slug.ts';
import type { Brand, CategoryNode, Product } from '../../lib/commerce/types.ts';
import type { Technology } from '../../lib/content/types.ts';
import { screenProducts } from './catalogue-source.ts';
import { liveSiteContent, technologiesFor } from './content-data.ts';

export interface LiveProductPage {
  product: Product;
  brand: { name: string; path: string } | undefined;
  trail: { name: string; path: string }[];
  related: Product[];
  technologies: Technology[];
}

const TTL_MS = 60_000;
const GRACE_MS = 10 * 60_000;
const products = createCache<Product | null>({
  ttlMs: TTL_MS,
  graceMs: GRACE_MS,
  maxEntries: 1_000,
});
const brands = createCache<Brand[]>({ ttlMs: 5 * TTL_MS, graceMs: GRACE_MS, maxEntries: 1 });
const AUTOMATIC = -1;

function depthOf(tree: readonly CategoryNode[], id: number): number {
  return breadcrumbs(tree, id).length;
}

/**
 * The page of product `id` when `path` is its canonical path and it is visible; null otherwise
 * (the route answers 404; an outdated slug was already sent to the right one by the
 * product-path middleware). Upstream failures are thrown (the route's error page).
 */
export async function liveProductPage(
  client: BigCommerceClient,
  id: number,
  path: string,
  tree: readonly CategoryNode[],
): Promise<LiveProductPage | null> {
  const product = await products.get(`${id}`, () => getProductById(client, id));
  if (!product?.isVisible || productPath(product) !== path) return null;
  // A product the route table refuses (its slug is `index`) has no page, live or built.
  if (screenProducts([product]).length === 0) return null;
  const relatedIds = product.relatedProducts.filter((related) => related !== AUTOMATIC).slice(0, 8);
  const [brandList, relatedProducts, content] = await Promise.all([
    product.brandId > 0 ? brands.get('all', () => getBrands(client)) : Promise.resolve([]),
    relatedIds.length > 0
      ? getProductsById(client, { entityIds: relatedIds })
      : Promise.resolve([]),
    liveSiteContent().catch(() => null),
  ]);
  const brand = brandList.find((candidate) => candidate.id === product.brandId);
  const category = [...product.categories]
    .filter((categoryId) => depthOf(tree, categoryId) > 0)
    .sort((a, b) => depthOf(tree, b) - depthOf(tree, a))[0];
  return {
    product,
    brand: brand ? { name: brand.name, path: brandPath(brand) } : undefined,
    trail:
      category === undefined
        ? []
        : breadcrumbs(tree, category).map((crumb) => ({ name: crumb.name, path: crumb.path })),
    related: relatedProducts
      .filter((related) => related.isVisible && related.id !== id)
      .slice(0, 4),
    technologies: content ? technologiesFor(content.technologies, technologyNames(product)) : [],
  };
}
