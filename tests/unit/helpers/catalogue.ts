/**
 * Small hand-made catalogues for unit tests: categories as the build reads them (flattened,
 * with the shown flag and depth) and brands with their path, indexed by `indexCatalogue`
 * exactly as the build indexes its read.
 */
import { brandPath, categoryPath } from '../../../src/lib/commerce/slug.ts';
import type { Product } from '../../../src/lib/commerce/types.ts';
import {
  indexCatalogue,
  type Catalogue,
  type CatalogueBrand,
  type CatalogueCategory,
} from '../../../src/shop/loaders/catalogue-index.ts';

export interface CategorySpec {
  id: number;
  name: string;
  /** Upstream url, `/matelas/` style. */
  url: string;
  children?: CategorySpec[];
  isVisible?: boolean;
  description?: string;
}

/** The tree flattened depth first as `readCategories` does; shown = visible with every ancestor. */
export function catalogueCategories(tree: readonly CategorySpec[]): CatalogueCategory[] {
  const out: CatalogueCategory[] = [];
  const walk = (
    nodes: readonly CategorySpec[],
    parentId: number,
    depth: number,
    shown: boolean,
  ) => {
    for (const node of nodes) {
      const visible = node.isVisible ?? true;
      out.push({
        id: node.id,
        parentId,
        name: node.name,
        description: node.description ?? '',
        url: node.url,
        isVisible: visible,
        sortOrder: 0,
        pageTitle: '',
        metaDescription: '',
        imageUrl: '',
        path: categoryPath(node.url),
        shown: shown && visible,
        childIds: (node.children ?? []).map((child) => child.id),
        depth,
      });
      walk(node.children ?? [], node.id, depth + 1, shown && visible);
    }
  };
  walk(tree, 0, 0, true);
  return out;
}

export function catalogueBrand(id: number, name: string, url = ''): CatalogueBrand {
  const brand = { id, name, url, pageTitle: '', metaDescription: '', imageUrl: '' };
  return { ...brand, path: brandPath(brand) };
}

export function makeCatalogue(
  products: readonly Product[],
  categories: readonly CatalogueCategory[],
  brands: readonly CatalogueBrand[] = [],
): Catalogue {
  return indexCatalogue({
    products: [...products],
    categories: [...categories],
    brands: [...brands],
  });
}
