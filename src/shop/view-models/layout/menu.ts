/**
 * The shop's menus from the content service's named navigations (spec §2 Header, §3
 * navigation entry): Main Navigation → main menu and desktop mega menu (a category page shows
 * its visible child categories and its promotional push), Sidebar Navigation → the menu
 * sidebar's accordion, Footer → the footer's link columns. When a navigation is empty (content
 * service down with no last good copy), the menus are made of the category tree instead: never
 * an empty header. Resellers (spec §6) see no sleep-content, affiliate or social link, and their
 * cart links open the reseller cart. Pure.
 */
import { pageEnabled, type Features } from '../../../lib/features.ts';
import { CART_PATH, RESELLER_CART_PATH } from '../../../lib/commerce/routes.ts';
import type { CategoryNode } from '../../../lib/commerce/types.ts';
import { categoryPath } from '../../../lib/commerce/slug.ts';
import type { NavigationEntry, RichTextDocument } from '../../../lib/content/types.ts';
import { AFFILIATE_PATH, hiddenFromResellers, linkPath } from '../../../lib/commerce/shop-mode.ts';

/** Promotional push of a root category's mega menu (spec §3 titlePush / contentPush). */
export interface MenuPush {
  title: string;
  content: RichTextDocument | null;
  /** Where the push leads (the category page), or null. */
  link: string | null;
}

export interface MenuItem {
  key: string;
  label: string;
  /** Local path or external URL; null for a heading that only groups its children. */
  url: string | null;
  external: boolean;
  /** The category of a category page: its mega menu and accordion list its children. */
  category: CategoryNode | null;
  /** Entries under this one (a group's links, a category page's own extras). */
  children: MenuItem[];
  push: MenuPush | null;
  /**
   * Resellers do not see it (spec §6): left out of a reseller's menus, and wrapped in
   * `ConsumerOnly` on the pages everyone shares, which the server strips for a reseller.
   */
  consumerOnly?: boolean;
}

export interface FooterColumn {
  key: string;
  title: string | null;
  links: MenuItem[];
}

export interface MenuOptions {
  isReseller?: boolean;
  /** The shop's feature flags: links to the pages of a feature switched off are left out. */
  features?: Features;
  /** Local paths already linked elsewhere on the page (the footer's legal links): left out. */
  exclude?: readonly string[];
}

export { AFFILIATE_PATH };

/**
 * Whether a menu entry is the current page's or one of its ancestors' (its path, or a path
 * below it); the home page never is, nor is an external link.
 */
export function isCurrentEntry(item: MenuItem, currentPath: string): boolean {
  if (item.url === null || item.external) return false;
  const path = linkPath(item.url);
  return path !== '/' && (currentPath === path || currentPath.startsWith(`${path}/`));
}

/** A link to a page that does not exist with the flags (a 404, spec §1, §6): never shown. */
function disabledFor(entry: NavigationEntry, options: MenuOptions): boolean {
  if (entry.url === null || entry.isExternalLink || !entry.url.startsWith('/')) return false;
  return options.features !== undefined && !pageEnabled(linkPath(entry.url), options.features);
}

/** A link resellers never see (spec §6: sleep content, affiliate link, social networks). */
function hiddenForResellers(entry: NavigationEntry): boolean {
  return entry.url !== null && hiddenFromResellers(entry.url);
}

function findCategory(nodes: readonly CategoryNode[], id: number): CategoryNode | null {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findCategory(node.children, id);
    if (found) return found;
  }
  return null;
}

function pushOf(entry: NavigationEntry): MenuPush | null {
  const title = entry.titlePush?.trim() ?? '';
  if (entry.type !== 'categoryPage' || title === '') return null;
  return { title, content: entry.contentPush, link: entry.url };
}

const MAX_DEPTH = 4;

/** A link to the cart, for a reseller: their cart page, where the cart is sent to a client. */
function resellerUrl(url: string | null): string | null {
  if (url === null) return null;
  const path = linkPath(url);
  return path === CART_PATH ? `${RESELLER_CART_PATH}${url.slice(path.length)}` : url;
}

function toItems(
  entries: readonly NavigationEntry[],
  categories: readonly CategoryNode[],
  options: MenuOptions,
  depth = 0,
): MenuItem[] {
  if (depth >= MAX_DEPTH) return [];
  return entries.flatMap((entry): MenuItem[] => {
    if (disabledFor(entry, options)) return [];
    const ownConsumerOnly = hiddenForResellers(entry);
    if (ownConsumerOnly && options.isReseller === true) return [];
    const category =
      entry.type === 'categoryPage' && entry.categoryId !== null
        ? findCategory(categories, entry.categoryId)
        : null;
    // A category page whose category is hidden or gone leads nowhere (spec §5).
    if (entry.type === 'categoryPage' && category === null) return [];
    const children = toItems(entry.childrens, categories, options, depth + 1);
    const label =
      [entry.label, entry.title ?? '', category?.name ?? '']
        .map((text) => text.trim())
        .find((text) => text !== '') ?? '';
    if (label === '' || (entry.url === null && children.length === 0)) return [];
    // A group of links resellers do not see is not theirs either.
    const consumerOnly =
      ownConsumerOnly ||
      (entry.url === null && children.every((child) => child.consumerOnly === true));
    return [
      {
        key: entry.key,
        label,
        url: options.isReseller === true ? resellerUrl(entry.url) : entry.url,
        external: entry.isExternalLink,
        category,
        children,
        // The mega menu's promotional push is shoppers' marketing (and links to sleep
        // content): resellers get none (spec §6).
        push: options.isReseller === true ? null : pushOf(entry),
        consumerOnly,
      },
    ];
  });
}

/**
 * What an entry's fold lists (the menu sidebar's accordion): its own entries, a group without
 * a URL kept as a fold of its links (never dropped), then a category page's visible child
 * categories with their children.
 */
export function foldEntries(item: MenuItem): MenuItem[] {
  const categories = (item.category?.children ?? []).map((child): MenuItem => ({
    key: `category-${String(child.id)}`,
    label: child.name,
    url: categoryPath(child.url),
    external: false,
    category: null,
    children: child.children.map((grandchild) => ({
      key: `category-${String(grandchild.id)}`,
      label: grandchild.name,
      url: categoryPath(grandchild.url),
      external: false,
      category: null,
      children: [],
      push: null,
    })),
    push: null,
  }));
  return [...item.children, ...categories];
}

/** A group that only gathers its entries (no URL of its own): shown as a fold (`<details>`). */
export function isFold(item: MenuItem): boolean {
  return item.url === null && item.children.length > 0;
}

/** Menu items of the category tree alone (the fallback): each root category, no push. */
export function categoryItems(categories: readonly CategoryNode[]): MenuItem[] {
  return categories.map((category) => ({
    key: `category-${category.id}`,
    label: category.name,
    url: categoryPath(category.url),
    external: false,
    category,
    children: [],
    push: null,
  }));
}

/** Main menu and mega menu (Main Navigation), else the root categories. */
export function mainMenu(
  categories: readonly CategoryNode[],
  main: readonly NavigationEntry[],
  options: MenuOptions = {},
): MenuItem[] {
  const items = toItems(main, categories, options);
  return items.length > 0 ? items : categoryItems(categories);
}

/** The menu sidebar's accordion (Sidebar Navigation), else the root categories. */
export function sidebarMenu(
  categories: readonly CategoryNode[],
  sidebar: readonly NavigationEntry[],
  options: MenuOptions = {},
): MenuItem[] {
  const items = toItems(sidebar, categories, options);
  return items.length > 0 ? items : categoryItems(categories);
}

/**
 * The footer's link columns (Footer navigation): each group a titled column, links at the top
 * level gathered in a column of their own, without the paths of `options.exclude` (linked in
 * the footer's legal bar already); a column left empty goes. Empty when there is no footer
 * navigation.
 */
export function footerColumns(
  categories: readonly CategoryNode[],
  footer: readonly NavigationEntry[],
  options: MenuOptions = {},
): FooterColumn[] {
  const excluded = new Set(options.exclude ?? []);
  // A link kept unless excluded; a group without a URL kept as a fold of the links it keeps.
  const kept = (item: MenuItem): MenuItem[] => {
    if (item.label === '') return [];
    if (item.url === null) {
      const children = item.children.flatMap(kept);
      return children.length === 0 ? [] : [{ ...item, children }];
    }
    return excluded.has(item.url) ? [] : [item];
  };
  const keep = (item: MenuItem) => kept(item).length > 0;
  const items = toItems(footer, categories, options);
  const columns: FooterColumn[] = [];
  const loose: MenuItem[] = [];
  for (const item of items) {
    if (item.children.length > 0) {
      const links = item.children.flatMap(kept);
      if (links.length > 0) columns.push({ key: item.key, title: item.label, links });
    } else if (keep(item)) {
      loose.push(item);
    }
  }
  if (loose.length > 0) columns.push({ key: 'footer-links', title: null, links: loose });
  return columns;
}
