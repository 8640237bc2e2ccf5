/**
 * Every pre-rendered page (each page of `src/pages` without `prerender = false`) with the data
 * it renders besides the shared layout, computed by the same pure functions the page calls.
 * Two pages of equal data (`same`) under equal layout data render the same bytes. The oracle
 * of `affected.ts`'s property test; linear in the site, so not for deciding an event at scale.
 *
 * The layout's data (the shown category tree, the menus made of the navigations) is `layoutOf`; the banner, the
 * site rating and the currency come from neither the catalogue nor the content and no event
 * changes them.
 */
import { bestSellers, type Catalogue } from '../loaders/catalogue-index.ts';
import {
  brandPageData,
  brandPages,
  categoryTiles,
  HOME_PRODUCTS,
  homeProducts,
  listedCategories,
  listingPageOne,
  listingSitemapPaths,
  productPageData,
  TILE_CHILDREN,
} from '../view-models/catalogue/page-data.ts';
import {
  sleepEntryPages,
  sleepListPageNumbers,
  staticContentPages,
} from '../view-models/content/page-data.ts';
import { sleepListPage } from '../view-models/content/sleep-list.ts';
import { productPath } from '../../lib/commerce/slug.ts';
import { SLEEP_CONTENT_PATH } from '../../lib/content/sleep-content.ts';
import type { SiteData } from './affected.ts';
import { shownMenus } from './shell.ts';

/** Pages made of the layout alone (and constant text). */
const LAYOUT_ONLY = ['/500', '/hors-ligne', '/Design', '/Tailwind', '/robots.txt'] as const;

/**
 * What every page's layout shows of the site's data: the shown category tree (menus,
 * breadcrumbs, tiles) and the menus, mega menu and footer columns made of the navigations.
 */
export function layoutOf(data: SiteData): unknown {
  const tree = data.catalogue.shownTree;
  return { tree, menus: shownMenus(tree, data.navigations) };
}

/** Shop path of every pre-rendered page → the data it renders (computed when called). */
export function prerenderedPages(data: SiteData): Map<string, () => unknown> {
  const cat: Catalogue = data.catalogue;
  const { content } = data;
  const brandLinks = () => cat.brands.map(({ id, name, path }) => ({ id, name, path }));
  const pages = new Map<string, () => unknown>();

  for (const path of LAYOUT_ONLY) pages.set(path, () => null);
  pages.set('/', () => ({
    // The hero's link to the first root (the tiles name the others).
    firstRoot: cat.roots.slice(0, 1).map(({ name, path }) => ({ name, path })),
    tiles: categoryTiles(cat, TILE_CHILDREN),
    ...homeProducts(cat),
    brands: brandLinks(),
  }));
  pages.set('/produit', () => ({
    count: cat.products.length,
    tiles: categoryTiles(cat, TILE_CHILDREN),
    best: bestSellers(cat, HOME_PRODUCTS),
    brands: brandLinks(),
  }));
  pages.set('/categorie', () => categoryTiles(cat));
  pages.set('/marque', brandLinks);
  pages.set('/sitemap-listings.xml', () => listingSitemapPaths(cat));

  for (const { url, brand } of brandPages(cat)) {
    pages.set(`/marque/${url}`, () => ({
      brand: { id: brand.id, name: brand.name, path: brand.path, meta: brand.metaDescription },
      ...brandPageData(cat, brand),
      others: brandLinks().filter((other) => other.id !== brand.id),
    }));
  }
  for (const category of listedCategories(cat)) {
    pages.set(category.path, () => {
      // The page renders the source through the result (brands: the facet's names).
      const { source, result } = listingPageOne(cat, category);
      const { category: head, trail, children } = source;
      return { head, trail, children, result };
    });
  }
  for (const product of cat.products) {
    pages.set(productPath(product), () => ({
      product,
      ...productPageData(cat, content.technologies, product),
    }));
  }

  for (const page of sleepListPageNumbers(content.sleepContents)) {
    const list = () => sleepListPage(content.sleepContents, content.tags, null, page);
    if (page === 1) pages.set(SLEEP_CONTENT_PATH, list);
    pages.set(`${SLEEP_CONTENT_PATH}/page/${String(page)}`, list);
  }
  // Of two entries or pages with one slug, Astro renders the last.
  for (const entry of sleepEntryPages(content.sleepContents)) {
    pages.set(`${SLEEP_CONTENT_PATH}/${entry.slug}`, () => entry);
  }
  for (const page of staticContentPages(content.pages)) {
    pages.set(`/${page.slug}`, () => page);
  }
  return pages;
}
