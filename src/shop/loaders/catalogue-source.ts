/**
 * The catalogue as the build reads it from the commerce service, through the same BigCommerce
 * connectors the API middleware uses: visible products with variants, images,
 * custom fields and options; the category tree flattened, with the shown flag of spec §5
 * (visibility, the hide-category metafield, every ancestor shown); and the brands.
 *
 * Read straight into memory once per build (catalogue.ts), not through Astro's content store:
 * the store serialises every product into one JavaScript module that the build then compiles
 * and keeps twice in memory; at 10,000 products that module was 48 MB and took 15 s to compile
 * and 4 s to write (`npm run bench:build` profile). Scale: products come in pages of
 * 250 fetched a few at a time, their options by id in batches of 10 (`getAllProducts`); every
 * read is linear in what it loads, with no per-product call.
 */
import {
  HIDE_CATEGORY_KEY,
  hiddenCategoryIds,
  refusedCategories,
  visibleTree,
} from '../../lib/commerce/category.ts';
import { brandPath, categoryPath, productPath } from '../../lib/commerce/slug.ts';
import { brandSlugRefusal, productSlugRefusal } from '../../lib/shop-routes.ts';
import { logRefused } from '../config/refused.ts';
import type { Brand, Category, CategoryNode, Product } from '../../lib/commerce/types.ts';
import {
  collectPages,
  getAllProducts,
  getBrands,
  getCategories,
  getCategoriesBatchMetafields,
  getCategoryTree,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';

/** Page size of BigCommerce list calls (its maximum). */
const PAGE_SIZE = 250;

/** A category as the catalogue pages use it. */
export interface CatalogueCategory extends Category {
  /** Shop path, `/c/...`. */
  path: string;
  /** spec §5: visible, not marked hide-category, and every ancestor shown too. */
  shown: boolean;
  /** Children in tree order (ids), shown or not. */
  childIds: number[];
  /** 0 for a root category. */
  depth: number;
}

/** A brand with the path of its corner page. */
export interface CatalogueBrand extends Brand {
  /** `/marque/{slug}`. */
  path: string;
}

function flatten(
  nodes: readonly CategoryNode[],
  depth: number,
  visit: (node: CategoryNode, depth: number) => void,
): void {
  for (const node of nodes) {
    visit(node, depth);
    flatten(node.children, depth + 1, visit);
  }
}

/** The last segment of a shop path (`/p/101/matelas` → `matelas`). */
const lastSegment = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * The products whose page the route table takes (`../../shop-routes.ts`: a name whose slug is
 * `index` is refused), the others logged. A slug is capped (`slugify`), so a long name is no
 * refusal.
 */
export function screenProducts(products: readonly Product[]): Product[] {
  return products.filter((product) => {
    const reason = productSlugRefusal(lastSegment(productPath(product)));
    if (reason !== null) logRefused('product', product.id, `slug of its name: ${reason}`);
    return reason === null;
  });
}

/** The brands whose corner page the route table takes, the others logged. */
export function screenBrands(brands: readonly CatalogueBrand[]): CatalogueBrand[] {
  return brands.filter((brand) => {
    const reason = brandSlugRefusal(lastSegment(brand.path));
    if (reason !== null) logRefused('brand', brand.id, `slug: ${reason}`);
    return reason === null;
  });
}

/** The visible products, in upstream order, without those the route table refuses. */
export async function readProducts(client: BigCommerceClient): Promise<Product[]> {
  return screenProducts(await getAllProducts(client, { isVisible: true }));
}

/** Every category in tree order (depth first), shown or not. */
export async function readCategories(client: BigCommerceClient): Promise<CatalogueCategory[]> {
  const [tree, details, metafields] = await Promise.all([
    getCategoryTree(client),
    collectPages((page) => getCategories(client, { page, limit: PAGE_SIZE })),
    getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
  ]);
  for (const { id, url, reason } of refusedCategories(tree)) {
    logRefused('category', id, `url ${JSON.stringify(url.slice(0, 200))}: ${reason}`);
  }
  const shownIds = new Set<number>();
  flatten(visibleTree(tree, hiddenCategoryIds(metafields)), 0, (node) => {
    shownIds.add(node.id);
  });
  const byId = new Map(details.map((category) => [category.id, category]));
  const categories: CatalogueCategory[] = [];
  flatten(tree, 0, (node, depth) => {
    const detail = byId.get(node.id);
    categories.push({
      id: node.id,
      parentId: node.parentId,
      name: node.name,
      description: detail?.description ?? '',
      url: node.url,
      isVisible: node.isVisible,
      sortOrder: detail?.sortOrder ?? 0,
      pageTitle: detail?.pageTitle ?? '',
      metaDescription: detail?.metaDescription ?? '',
      imageUrl: detail?.imageUrl ?? '',
      path: categoryPath(node.url),
      shown: shownIds.has(node.id),
      childIds: node.children.map((child) => child.id),
      depth,
    });
  });
  return categories;
}

/** Every brand with its corner path, but those the route table refuses. */
export async function readBrands(client: BigCommerceClient): Promise<CatalogueBrand[]> {
  return screenBrands(
    (await getBrands(client)).map((brand) => ({ ...brand, path: brandPath(brand) })),
  );
}

/** The three reads of a build. */
export interface CatalogueRead {
  products: Product[];
  categories: CatalogueCategory[];
  brands: CatalogueBrand[];
  /** How long the reads took (ms). */
  ms: number;
}

/** Products, categories and brands, read at once. */
export async function readCatalogue(client: BigCommerceClient): Promise<CatalogueRead> {
  const started = performance.now();
  const [products, categories, brands] = await Promise.all([
    readProducts(client),
    readCategories(client),
    readBrands(client),
  ]);
  return { products, categories, brands, ms: Math.round(performance.now() - started) };
}
