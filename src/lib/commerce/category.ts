import { categoryUrlRefusal } from '../shop-routes.ts';
import { categoryPath } from './slug.ts';
import type { CategoryNode, Metafield } from './types.ts';

/** spec §3: a category metafield with this key and the value 'true' hides the category. */
export const HIDE_CATEGORY_KEY = 'hide-category';

function hides(metafield: Pick<Metafield, 'key' | 'value'>): boolean {
  return metafield.key === HIDE_CATEGORY_KEY && metafield.value.trim().toLowerCase() === 'true';
}

/** Ids of the categories marked hide-category in a batch of category metafields. */
export function hiddenCategoryIds(metafields: readonly Metafield[]): Set<number> {
  return new Set(metafields.filter(hides).map((metafield) => metafield.resourceId));
}

/**
 * spec §5: a category is shown only if visible and not marked hide-category. `metafields` may
 * be the category's own or a batch for many categories (matched on resourceId).
 */
export function isCategoryShown(
  category: Pick<CategoryNode, 'id' | 'isVisible'>,
  metafields: readonly Metafield[],
): boolean {
  return category.isVisible && !metafields.some((m) => m.resourceId === category.id && hides(m));
}

/**
 * The tree without invisible or hidden categories, nor those whose URL cannot be a listing
 * (`refusedCategories`); a removed category takes its children.
 */
export function visibleTree(
  tree: readonly CategoryNode[],
  hiddenIds: ReadonlySet<number> | readonly number[],
): CategoryNode[] {
  const hidden = new Set(hiddenIds);
  const prune = (nodes: readonly CategoryNode[]): CategoryNode[] =>
    nodes
      .filter(
        (node) => node.isVisible && !hidden.has(node.id) && categoryUrlRefusal(node.url) === null,
      )
      .map((node) => ({ ...node, children: prune(node.children) }));
  return prune(tree);
}

/**
 * The visible categories whose URL the route table refuses (dot or empty segments, upper case,
 * encoded separators, `index`...: `../shop-routes.ts`), with the reason. They are not shown,
 * nor their children: no listing, menu entry or link names them. Their readers log them.
 */
export function refusedCategories(
  tree: readonly CategoryNode[],
): { id: number; url: string; reason: string }[] {
  const refused: { id: number; url: string; reason: string }[] = [];
  const visit = (nodes: readonly CategoryNode[]): void => {
    for (const node of nodes) {
      if (!node.isVisible) continue;
      const reason = categoryUrlRefusal(node.url);
      if (reason === null) visit(node.children);
      else refused.push({ id: node.id, url: node.url, reason });
    }
  };
  visit(tree);
  return refused;
}

/** Every node of the tree, depth first, parents before children. */
export function flattenTree(tree: readonly CategoryNode[]): CategoryNode[] {
  return tree.flatMap((node) => [node, ...flattenTree(node.children)]);
}

function normalise(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.toLowerCase())
    .join('/');
}

/**
 * The category at a path, given either as the upstream url (`/matelas/ressorts/`) or as the
 * shop path (`/c/matelas/ressorts`); trailing slash and case ignored.
 */
export function findCategoryByPath(
  tree: readonly CategoryNode[],
  path: string,
): CategoryNode | undefined {
  const wanted = normalise(path);
  const withoutPrefix = wanted.startsWith('c/') ? wanted.slice(2) : null;
  const nodes = flattenTree(tree);
  return (
    nodes.find((node) => normalise(node.url) === wanted) ??
    (withoutPrefix === null
      ? undefined
      : nodes.find((node) => normalise(node.url) === withoutPrefix))
  );
}

export interface Breadcrumb {
  id: number;
  name: string;
  /** Shop path `/c/...`. */
  path: string;
}

/** Root-to-category trail of a category (home not included); empty when the id is unknown. */
export function breadcrumbs(tree: readonly CategoryNode[], id: number): Breadcrumb[] {
  const trail = (nodes: readonly CategoryNode[]): CategoryNode[] | null => {
    for (const node of nodes) {
      if (node.id === id) return [node];
      const below = trail(node.children);
      if (below) return [node, ...below];
    }
    return null;
  };
  return (trail(tree) ?? []).map((node) => ({
    id: node.id,
    name: node.name,
    path: categoryPath(node.url),
  }));
}

/**
 * The shop route (`/c/...`) of the shown category whose BigCommerce path (`custom_url.url`,
 * trailing slash and case aside) is `path`, or null: old storefront links and `url` redirects
 * name categories that way.
 */
export function categoryRouteOf(tree: readonly CategoryNode[], path: string): string | null {
  const wanted = path.replace(/\/+$/, '').toLowerCase();
  if (wanted === '') return null;
  const walk = (nodes: readonly CategoryNode[]): string | null => {
    for (const node of nodes) {
      if (node.url.replace(/\/+$/, '').toLowerCase() === wanted) return categoryPath(node.url);
      const found = walk(node.children);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(tree);
}

/**
 * Path of each category of `tree` by id: of the shown tree, hidden ones are absent, so their
 * navigation entries are dropped.
 */
export function categoryPaths(tree: readonly CategoryNode[]): Map<number, string> {
  const paths = new Map<number, string>();
  const walk = (nodes: readonly CategoryNode[]) => {
    for (const node of nodes) {
      paths.set(node.id, categoryPath(node.url));
      walk(node.children);
    }
  };
  walk(tree);
  return paths;
}
