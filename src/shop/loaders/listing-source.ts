/**
 * The listing of a shown category as the pre-rendered page 1 (`/c/...`) reads it from the
 * build's catalogue, and the shapes both listing sources share (`listing-data.ts`: the live
 * source of the on-demand view). Pure: the publisher (`../publish/affected.ts`) computes a
 * listing's data with the same function as the page.
 */
import { breadcrumbs, type Breadcrumb } from '../../lib/commerce/category.ts';
import { categoryPath } from '../../lib/commerce/slug.ts';
import type { Brand, Category, CategoryNode, Product } from '../../lib/commerce/types.ts';
import type { Catalogue, CatalogueCategory } from './catalogue-index.ts';

export interface ListingCategory {
  id: number;
  name: string;
  /** HTML description as authored upstream. */
  description: string;
  pageTitle: string;
  metaDescription: string;
  /** Shop path `/c/...`. */
  path: string;
}

export interface ListingSource {
  category: ListingCategory;
  /** Root-to-category trail (home not included). */
  trail: Breadcrumb[];
  /** Shown sub-categories. */
  children: { id: number; name: string; path: string }[];
  /** Every visible product of the category; the listing sorts, filters and pages them. */
  products: Product[];
  brands: Pick<Brand, 'id' | 'name'>[];
}

export function listingCategory(category: Category): ListingCategory {
  return {
    id: category.id,
    name: category.name,
    description: category.description,
    pageTitle: category.pageTitle,
    metaDescription: category.metaDescription,
    path: categoryPath(category.url),
  };
}

export function childrenOf(node: CategoryNode | undefined): ListingSource['children'] {
  return (node?.children ?? []).map((child) => ({
    id: child.id,
    name: child.name,
    path: categoryPath(child.url),
  }));
}

function findNode(tree: readonly CategoryNode[], id: number): CategoryNode | undefined {
  for (const node of tree) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** The listing of a shown category from the build-time catalogue. */
export function staticListingSource(cat: Catalogue, category: CatalogueCategory): ListingSource {
  return {
    category: listingCategory(category),
    trail: breadcrumbs(cat.shownTree, category.id),
    children: childrenOf(findNode(cat.shownTree, category.id)),
    products: cat.productsByCategory.get(category.id) ?? [],
    brands: cat.brands,
  };
}
