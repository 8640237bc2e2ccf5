/**
 * Content collections of the catalogue, loaded at build time through the same BigCommerce
 * connectors the API middleware uses (ARCHITECTURE.md): `products` (visible products with
 * variants, images, custom fields, options), `categories` (the tree flattened, with the shown
 * flag of spec §5 from visibility and the hide-category metafield) and `brands`.
 *
 * Scale (build bench: 10,000 products in <= 60 s on 2 cores): products come in pages of 250
 * fetched a few at a time, their options by id in batches of 10; every loader is linear in
 * what it loads, with no per-product call.
 */
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { HIDE_CATEGORY_KEY, hiddenCategoryIds, visibleTree } from './lib/commerce/category.ts';
import { brandPath, categoryPath } from './lib/commerce/slug.ts';
import type { Brand, Category, CategoryNode, Product } from './lib/commerce/types.ts';
import {
  collectPages,
  getBrands,
  getCategories,
  getCategoriesBatchMetafields,
  getCategoryTree,
  getProducts,
  type BigCommerceClient,
} from './lib/server/bigcommerce/index.ts';
import { bigcommerce } from './lib/server/config.ts';

/** Page size of BigCommerce list calls (its maximum). */
const PAGE_SIZE = 250;
/** Products per request when options are included (BigCommerce's cap). */
const OPTIONS_PAGE_SIZE = 10;
/** Sub-resources of the bulk product pages; options come separately (see loadAllProducts). */
const BULK_INCLUDE = ['variants', 'images', 'custom_fields'] as const;
/** Requests in flight at once: enough to hide latency, gentle on the API's rate limit. */
const CONCURRENT_REQUESTS = 8;

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

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await task(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Every visible product with its variants, images, custom fields and options.
 *
 * BigCommerce serves at most 10 products per page when `include` has `options`
 * (catalog.v3.yml): 1,000 offset pages for 10,000 products. So products come in pages of 250
 * without options, and the options by id, 10 products a request (`id:in`, no offset to walk).
 */
async function loadAllProducts(client: BigCommerceClient): Promise<Product[]> {
  const query = { isVisible: true, limit: PAGE_SIZE, include: [...BULK_INCLUDE] };
  const first = await getProducts(client, { ...query, page: 1 });
  const pageNumbers = Array.from(
    { length: Math.max(0, first.pagination.totalPages - 1) },
    (_, index) => index + 2,
  );
  const rest = await mapConcurrent(
    pageNumbers,
    CONCURRENT_REQUESTS,
    async (page) => (await getProducts(client, { ...query, page })).items,
  );
  const products = [...first.items, ...rest.flat()];

  const ids = products.map((product) => product.id);
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += OPTIONS_PAGE_SIZE) {
    chunks.push(ids.slice(i, i + OPTIONS_PAGE_SIZE));
  }
  const withOptions = await mapConcurrent(
    chunks,
    CONCURRENT_REQUESTS,
    async (chunk) =>
      (await getProducts(client, { ids: chunk, include: ['options'], limit: OPTIONS_PAGE_SIZE }))
        .items,
  );
  const optionsById = new Map(withOptions.flat().map((product) => [product.id, product.options]));
  return products.map((product) => ({ ...product, options: optionsById.get(product.id) ?? [] }));
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

const products = defineCollection({
  loader: {
    name: 'bigcommerce-products',
    async load({ store, logger }) {
      const started = performance.now();
      const items = await loadAllProducts(bigcommerce());
      store.clear();
      for (const product of items) store.set({ id: String(product.id), data: { ...product } });
      logger.info(`${items.length} products in ${Math.round(performance.now() - started)} ms`);
    },
  },
  schema: z.custom<Product>(),
});

const categories = defineCollection({
  loader: {
    name: 'bigcommerce-categories',
    async load({ store, logger }) {
      const client = bigcommerce();
      const [tree, details, metafields] = await Promise.all([
        getCategoryTree(client),
        collectPages((page) => getCategories(client, { page, limit: PAGE_SIZE })),
        getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
      ]);
      const shownIds = new Set<number>();
      flatten(visibleTree(tree, hiddenCategoryIds(metafields)), 0, (node) => {
        shownIds.add(node.id);
      });
      const byId = new Map(details.map((category) => [category.id, category]));
      store.clear();
      flatten(tree, 0, (node, depth) => {
        const detail = byId.get(node.id);
        const category: CatalogueCategory = {
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
        };
        store.set({ id: String(node.id), data: { ...category } });
      });
      logger.info(`${shownIds.size} categories shown of ${byId.size}`);
    },
  },
  schema: z.custom<CatalogueCategory>(),
});

const brands = defineCollection({
  loader: {
    name: 'bigcommerce-brands',
    async load({ store }) {
      const items = await getBrands(bigcommerce());
      store.clear();
      for (const brand of items) {
        const entry: CatalogueBrand = { ...brand, path: brandPath(brand) };
        store.set({ id: String(brand.id), data: { ...entry } });
      }
    },
  },
  schema: z.custom<CatalogueBrand>(),
});

export const collections = { products, categories, brands };
