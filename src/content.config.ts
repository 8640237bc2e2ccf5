/**
 * Content collections of the catalogue, loaded at build time through the same BigCommerce
 * connectors the API middleware uses (ARCHITECTURE.md): `products` (visible products with
 * variants, images, custom fields, options), `categories` (the tree flattened, with the shown
 * flag of spec §5 from visibility and the hide-category metafield) and `brands`.
 *
 * Scale (build bench: 10,000 products in <= 60 s on 2 cores): products come in pages of 250
 * fetched a few at a time, their options by id in batches of 10 (`getAllProducts`); every loader
 * is linear in what it loads, with no per-product call.
 */
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { HIDE_CATEGORY_KEY, hiddenCategoryIds, visibleTree } from './lib/commerce/category.ts';
import { brandPath, categoryPath } from './lib/commerce/slug.ts';
import type { Brand, Category, CategoryNode, Product } from './lib/commerce/types.ts';
import {
  collectPages,
  getAllProducts,
  getBrands,
  getCategories,
  getCategoriesBatchMetafields,
  getCategoryTree,
} from './lib/server/bigcommerce/index.ts';
import { bigcommerce } from './lib/server/config.ts';

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

const products = defineCollection({
  loader: {
    name: 'bigcommerce-products',
    async load({ store, logger }) {
      const started = performance.now();
      const items = await getAllProducts(bigcommerce(), { isVisible: true });
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
