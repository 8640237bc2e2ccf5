/**
 * Which pre-rendered pages an event touches (publishing touches only what changed):
 * the publisher keeps the build's pre-render app, patches its catalogue or content after a
 * webhook, asks here what to render again, and falls back to a full build when a partial
 * update cannot be exact. The table and its reasons: `README.md` beside this file.
 *
 * The decision compares the data before and after the event, not the event alone: whatever
 * differs between the two (one product, or several when the publisher folded events together)
 * is placed on the pages that read it, with the same pure functions the pages call
 * (`src/shop/view-models/catalogue/page-data.ts`, `src/shop/view-models/content/page-data.ts`). The event
 * only names the change in a reason. Pure, no I/O, no `astro:*`: importable from Node.
 *
 * Cost: linear in the catalogue at worst (one pass comparing products by reference, then by
 * value for the few that differ; the inverse indexes built once per catalogue object and kept
 * while it lives), never a pass over the products per page. Keep unchanged products as the
 * same objects in the patched read, and hand the previous `after` in as the next `before`, so
 * both stay cheap.
 */
import { technologies as technologyNames } from '../../lib/commerce/custom-fields.ts';
import { parseListingParams, listingPageCount } from '../../lib/commerce/listing.ts';
import { productPath } from '../../lib/commerce/slug.ts';
import type { Product } from '../../lib/commerce/types.ts';
import { technologyKey } from '../../lib/content/technologies.ts';
import type { Navigations, Technology } from '../../lib/content/types.ts';
import {
  automaticWindow,
  firstAfter,
  RELATED_COUNT,
  relatedProducts,
} from '../view-models/catalogue/related.ts';
import { brandPages, homeProducts, isListed } from '../view-models/catalogue/page-data.ts';
import {
  sleepEntryPages,
  sleepListPageNumbers,
  staticContentPages,
} from '../view-models/content/page-data.ts';
import { SLEEP_CONTENT_PATH } from '../../lib/content/sleep-content.ts';
import { productCategories, type Catalogue } from '../loaders/catalogue-index.ts';
import type { SiteContent } from '../loaders/content-data.ts';
import { same } from './same.ts';
import { shownMenus } from './shell.ts';

/** What the pre-rendered pages are made of, besides the code and the layout's other data. */
export interface SiteData {
  catalogue: Catalogue;
  content: SiteContent;
  /** The content service's three named navigations (`layout-data.ts`): the menus. */
  navigations: Navigations;
}

/** A webhook event as the publisher hands it over (`src/server/webhooks/`). */
export type PublishEvent =
  | {
      source: 'bigcommerce';
      resource: 'product' | 'category' | 'brand';
      action: 'created' | 'updated' | 'deleted';
      id: number | string;
    }
  | { source: 'contentful'; topic: string; id: string };

export type Affected =
  | {
      kind: 'partial';
      /** Shop paths to render again (`/p/101/matelas-elysee`, `/c/matelas`, `/`...), sorted. */
      render: string[];
      /** Pre-rendered pages that no longer exist (a deleted product, an old slug), sorted. */
      remove: string[];
      /** On-demand renders (listing views, search results, cached API reads) may show what changed. */
      purgeOnDemand: boolean;
      /**
       * The set of pre-rendered pages changed (a page added or removed): the sitemap that
       * `@astrojs/sitemap` wrote at the end of the build (`sitemap-0.xml`) lists them.
       */
      pageSetChanged: boolean;
    }
  | { kind: 'full'; reason: string };

/**
 * More pages than this to render again: a full build instead. At 100,000 products a publish
 * of 1,800 pages takes 8-9.5 s on 2 cores (the render threads kept: 3-4 ms a page) and a full
 * build 352 s: 5,000 pages publish in well under a minute, inside the kept build's deadline
 * (`PUBLISH_TIMEOUT_MS`, 90 s) even on a loaded machine (README).
 */
export const MAX_PARTIAL_PAGES = 5_000;

export interface AffectedOptions {
  /** Default `MAX_PARTIAL_PAGES`. */
  maxPages?: number;
}

function describe(event: PublishEvent): string {
  return event.source === 'bigcommerce'
    ? `${event.resource} ${String(event.id)} ${event.action}`
    : `${event.topic} ${event.id}`;
}

// --- indexes kept per catalogue object -------------------------------------------------------

interface CatalogueIndexes {
  /** Ids on the home page (best sellers, on sale) and of the best sellers (`/produit`). */
  home?: { home: Set<number>; best: Set<number> };
  /** Products naming each product id in their `related_products`. */
  namedBy?: Map<number, Product[]>;
  /** Products whose `technology` field names each technology key. */
  byTechnology?: Map<string, Product[]>;
  /** The brand page path of each brand id that has one. */
  brandPage?: Map<number, string>;
}

const indexes = new WeakMap<Catalogue, CatalogueIndexes>();

function indexesOf(cat: Catalogue): CatalogueIndexes {
  let found = indexes.get(cat);
  if (!found) {
    found = {};
    indexes.set(cat, found);
  }
  return found;
}

function homeSets(cat: Catalogue): { home: Set<number>; best: Set<number> } {
  const index = indexesOf(cat);
  if (!index.home) {
    const { best, sale } = homeProducts(cat);
    index.home = {
      home: new Set([...best, ...sale].map((p) => p.id)),
      best: new Set(best.map((p) => p.id)),
    };
  }
  return index.home;
}

function namedBy(cat: Catalogue): Map<number, Product[]> {
  const index = indexesOf(cat);
  if (!index.namedBy) {
    const map = new Map<number, Product[]>();
    for (const product of cat.products) {
      const named = product.relatedProducts;
      for (let i = 0; i < named.length; i += 1) {
        const id = named[i] ?? 0;
        if (named.indexOf(id) !== i) continue; // named twice
        const list = map.get(id);
        if (list) list.push(product);
        else map.set(id, [product]);
      }
    }
    index.namedBy = map;
  }
  return index.namedBy;
}

function byTechnology(cat: Catalogue): Map<string, Product[]> {
  const index = indexesOf(cat);
  if (!index.byTechnology) {
    const map = new Map<string, Product[]>();
    for (const product of cat.products) {
      for (const key of new Set(technologyNames(product).map(technologyKey))) {
        const list = map.get(key);
        if (list) list.push(product);
        else map.set(key, [product]);
      }
    }
    index.byTechnology = map;
  }
  return index.byTechnology;
}

function brandPageOf(cat: Catalogue): Map<number, string> {
  const index = indexesOf(cat);
  index.brandPage ??= new Map(
    brandPages(cat).map(({ url, brand }) => [brand.id, `/marque/${url}`]),
  );
  return index.brandPage;
}

// --- the plan --------------------------------------------------------------------------------

class Plan {
  readonly render = new Set<string>();
  readonly remove = new Set<string>();
  purgeOnDemand = false;
  pageSetChanged = false;

  /** A page that exists before and/or after under these paths. */
  page(before: string | undefined, after: string | undefined): void {
    if (after !== undefined) this.render.add(after);
    if (before !== undefined && before !== after) this.remove.add(before);
    if (before !== after) this.pageSetChanged = true;
  }
}

/** The product pages that show `product` among their related products in `cat`. */
function pagesShowing(cat: Catalogue, product: Product): Product[] {
  const candidates = new Set<Product>(namedBy(cat).get(product.id) ?? []);
  // Automatically: the pages just before it in each of its categories (related.ts).
  const window = automaticWindow(RELATED_COUNT);
  for (const category of productCategories(cat, product)) {
    const list = cat.productsByCategory.get(category.id) ?? [];
    const at = firstAfter(list, product.id) - 1;
    for (let back = 1; back <= Math.min(window, list.length - 1); back += 1) {
      const candidate = list[(at - back + list.length) % list.length];
      if (candidate) candidates.add(candidate);
    }
  }
  return [...candidates].filter(
    (page) =>
      page.id !== product.id &&
      relatedProducts(cat, page, RELATED_COUNT).some((shown) => shown.id === product.id),
  );
}

function rootCounts(cat: Catalogue, categoryIds: Iterable<number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const id of categoryIds) {
    const category = cat.categoryById.get(id);
    if (category?.shown && category.depth === 0) {
      counts.set(id, cat.productsByCategory.get(id)?.length ?? 0);
    }
  }
  return counts;
}

/** A product changed, appeared or went (`before` / `after` undefined). */
function productChanged(
  plan: Plan,
  b: Catalogue,
  a: Catalogue,
  before: Product | undefined,
  after: Product | undefined,
): void {
  plan.purgeOnDemand = true;
  plan.page(before && productPath(before), after && productPath(after));

  // Its listings (page 1 shows the count, the facets and the first products of all of them),
  // and the listings' sitemap when a listing's page count moves.
  const categoryIds = new Set([...(before?.categories ?? []), ...(after?.categories ?? [])]);
  const plain = parseListingParams('');
  for (const id of categoryIds) {
    const category = a.categoryById.get(id);
    if (!isListed(category)) continue;
    plan.render.add(category.path);
    const pages = (cat: Catalogue) =>
      listingPageCount(cat.productsByCategory.get(id)?.length ?? 0, plain);
    if (pages(b) !== pages(a)) plan.render.add('/sitemap-listings.xml');
  }

  // Category tiles (home, /categorie, /produit) count the products of each root.
  const countsBefore = rootCounts(b, categoryIds);
  const countsAfter = rootCounts(a, categoryIds);
  if ([...countsAfter].some(([id, count]) => countsBefore.get(id) !== count)) {
    plan.render.add('/').add('/categorie').add('/produit');
  }

  // Home sections and /produit's best sellers, before or after.
  const id = (after ?? before)?.id ?? 0;
  const [homeBefore, homeAfter] = [homeSets(b), homeSets(a)];
  if (homeBefore.home.has(id) || homeAfter.home.has(id)) plan.render.add('/');
  if (homeBefore.best.has(id) || homeAfter.best.has(id)) plan.render.add('/produit');
  // `/produit` says how many products there are.
  if ((before === undefined) !== (after === undefined)) plan.render.add('/produit');

  // Its brand's page (count, best sellers, roots), before and after.
  for (const brandId of new Set([before?.brandId ?? 0, after?.brandId ?? 0])) {
    const path = brandPageOf(a).get(brandId);
    if (path !== undefined) plan.render.add(path);
  }

  // Product pages showing it among their related products, before or after.
  const showing = [
    ...(before ? pagesShowing(b, before) : []),
    ...(after ? pagesShowing(a, after) : []),
  ];
  for (const page of showing) {
    const current = a.productById.get(page.id);
    if (current) plan.render.add(productPath(current));
  }
}

/** Every product that differs between the catalogues: by reference first, by value then. */
function changedProducts(b: Catalogue, a: Catalogue): number[] {
  const changed: number[] = [];
  for (const [id, before] of b.productById) {
    const after = a.productById.get(id);
    if (after !== before && !(after && same(before, after))) changed.push(id);
  }
  for (const id of a.productById.keys()) {
    if (!b.productById.has(id)) changed.push(id);
  }
  return changed;
}

/** Categories whose own fields changed (the tree being the same: name, url, order are equal). */
function categoriesChanged(plan: Plan, b: Catalogue, a: Catalogue): void {
  for (const category of a.categories) {
    const before = b.categoryById.get(category.id);
    // A listing reads its category's description, page title and meta description.
    if (isListed(category) && !same(before, category)) {
      plan.render.add(category.path);
      plan.purgeOnDemand = true;
    }
  }
}

function brandsChanged(plan: Plan, b: Catalogue, a: Catalogue): void {
  const links = (cat: Catalogue) => cat.brands.map(({ id, name, path }) => ({ id, name, path }));
  if (!same(links(b), links(a))) {
    // Every brand list: home, /produit, /marque and the "other brands" of each brand page.
    plan.render.add('/').add('/produit').add('/marque');
    for (const path of brandPageOf(a).values()) plan.render.add(path);
    plan.purgeOnDemand = true;
  }

  // Brand pages: which brand owns each slug, and what that brand says.
  const pagesBefore = new Map(brandPages(b).map(({ url, brand }) => [url, brand]));
  const pagesAfter = new Map(brandPages(a).map(({ url, brand }) => [url, brand]));
  for (const url of new Set([...pagesBefore.keys(), ...pagesAfter.keys()])) {
    const before = pagesBefore.get(url);
    const after = pagesAfter.get(url);
    if (!same(before, after)) {
      const path = `/marque/${url}`;
      plan.page(before && path, after && path);
    }
  }

  // A brand's name or path is on its products' pages; its name in the brand facet of their
  // listings (and of on-demand views and search results).
  for (const id of new Set([...b.brandById.keys(), ...a.brandById.keys()])) {
    const before = b.brandById.get(id);
    const after = a.brandById.get(id);
    if (before?.name === after?.name && before?.path === after?.path) continue;
    plan.purgeOnDemand = true;
    const products = new Set([
      ...(b.productsByBrand.get(id) ?? []),
      ...(a.productsByBrand.get(id) ?? []),
    ]);
    const nameChanged = before?.name !== after?.name;
    for (const product of products) {
      const current = a.productById.get(product.id);
      if (current) plan.render.add(productPath(current));
      if (!nameChanged) continue;
      for (const categoryId of product.categories) {
        const category = a.categoryById.get(categoryId);
        if (isListed(category)) plan.render.add(category.path);
      }
    }
  }
}

/** Technology blocks: the winner of each name (the last of that name), before and after. */
function technologiesChanged(plan: Plan, b: SiteData, a: SiteData): void {
  const winners = (list: readonly Technology[]) =>
    new Map(list.map((technology) => [technology.name.toLowerCase(), technology]));
  const before = winners(b.content.technologies);
  const after = winners(a.content.technologies);
  const keys = [...new Set([...before.keys(), ...after.keys()])].filter(
    (key) => !same(before.get(key), after.get(key)),
  );
  if (keys.length === 0) return;
  plan.purgeOnDemand = true; // the API's cached getTechnologies
  const index = byTechnology(a.catalogue);
  for (const key of keys) {
    for (const product of index.get(key) ?? []) plan.render.add(productPath(product));
  }
}

/** The sleep-content list, its entries' pages and the content pages. */
function contentChanged(plan: Plan, b: SiteContent, a: SiteContent): void {
  if (!same(b.sleepContents, a.sleepContents) || !same(b.tags, a.tags)) {
    // Every page of the list shows its entries' order, the tags on offer and the page count.
    plan.purgeOnDemand = true; // the list filtered by tag, the API's cached getTags
    const listPages = (content: SiteContent) =>
      new Set(
        sleepListPageNumbers(content.sleepContents).map(
          (page) => `${SLEEP_CONTENT_PATH}/page/${String(page)}`,
        ),
      );
    const pagesBefore = listPages(b);
    const pagesAfter = listPages(a);
    plan.render.add(SLEEP_CONTENT_PATH);
    for (const path of new Set([...pagesBefore, ...pagesAfter])) {
      plan.page(pagesBefore.has(path) ? path : undefined, pagesAfter.has(path) ? path : undefined);
    }
  }
  // Entry pages, by path (of two entries with one slug, the last is rendered, as Astro does).
  const entries = (content: SiteContent) =>
    new Map(
      sleepEntryPages(content.sleepContents).map((entry) => [
        `${SLEEP_CONTENT_PATH}/${entry.slug}`,
        entry,
      ]),
    );
  diffPages(plan, entries(b), entries(a));
  const pages = (content: SiteContent) =>
    new Map(staticContentPages(content.pages).map((page) => [`/${page.slug}`, page]));
  diffPages(plan, pages(b), pages(a));
}

function diffPages(plan: Plan, before: Map<string, unknown>, after: Map<string, unknown>): void {
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(path);
    const now = after.get(path);
    if (!same(old, now))
      plan.page(old === undefined ? undefined : path, now === undefined ? undefined : path);
  }
}

/**
 * The pages `event` touches, from the site's data before and after it: a partial update
 * (render, remove, purge) or a full build and why.
 */
export function affectedPages(
  before: SiteData,
  after: SiteData,
  event: PublishEvent,
  options: AffectedOptions = {},
): Affected {
  const what = describe(event);
  const b = before.catalogue;
  const a = after.catalogue;
  // Data changed in place cannot be compared: a stale page is worse than a full build.
  const untouched =
    event.source === 'bigcommerce'
      ? b === a
      : before.content === after.content && before.navigations === after.navigations;
  if (untouched) {
    return {
      kind: 'full',
      reason: `${what}: the ${event.source === 'bigcommerce' ? 'catalogue' : 'content'} before and after is one object, nothing to compare`,
    };
  }
  // The shared layout: the shown category tree, and the menus and footer columns made from it
  // and the content navigations (what they show, not every field of their entries).
  if (!same(b.shownTree, a.shownTree)) {
    return {
      kind: 'full',
      reason: `${what}: the shown category tree changed (every page's menus, breadcrumbs, category tiles)`,
    };
  }
  const navigationsChanged = !same(before.navigations, after.navigations);
  if (
    navigationsChanged &&
    !same(shownMenus(b.shownTree, before.navigations), shownMenus(a.shownTree, after.navigations))
  ) {
    return {
      kind: 'full',
      reason: `${what}: the menus or the footer columns changed (every page's shell)`,
    };
  }

  const plan = new Plan();
  // The API's cached navigation reads and the on-demand pages' layout reads.
  if (navigationsChanged) plan.purgeOnDemand = true;
  if (b !== a) {
    for (const id of changedProducts(b, a)) {
      productChanged(plan, b, a, b.productById.get(id), a.productById.get(id));
    }
    categoriesChanged(plan, b, a);
    brandsChanged(plan, b, a);
  }
  if (before.content !== after.content) {
    technologiesChanged(plan, before, after);
    contentChanged(plan, before.content, after.content);
  }

  const maxPages = options.maxPages ?? MAX_PARTIAL_PAGES;
  if (plan.render.size > maxPages) {
    return {
      kind: 'full',
      reason: `${what}: ${String(plan.render.size)} pages to render again, over ${String(maxPages)}`,
    };
  }
  for (const path of plan.render) plan.remove.delete(path);
  return {
    kind: 'partial',
    render: [...plan.render].sort(),
    remove: [...plan.remove].sort(),
    purgeOnDemand: plan.purgeOnDemand,
    pageSetChanged: plan.pageSetChanged,
  };
}
