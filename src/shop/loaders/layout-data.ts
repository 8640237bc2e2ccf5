/**
 * Data every page shell needs (spec §4 "Layout load"): the visible category tree, the top-bar
 * banner, the content service's three named navigations (spec §3; the menus and the mega
 * menu's pushes are made from them by `src/shop/view-models/layout/menu.ts`), and the
 * guaranteed-reviews site rating. Build and server side only: it calls the BigCommerce and
 * Contentful connectors; the layouts hand what it read to the shell's components.
 * The navigations fall back to their last good copy when the content service cannot be read,
 * and to menus made of the category tree when there is none: never an empty header.
 */
import {
  categoryPaths,
  hiddenCategoryIds,
  HIDE_CATEGORY_KEY,
  refusedCategories,
  visibleTree,
} from '../../lib/commerce/category.ts';
import { logRefused } from '../config/refused.ts';
import type { CategoryNode } from '../../lib/commerce/types.ts';
import {
  getAllBanners,
  getCategoriesBatchMetafields,
  getCategoryTree,
  getChannel,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { currencyCode } from '../../lib/i18n/locale.ts';
import { logFailure } from '../faults/failures.ts';
import { NAVIGATION_IDENTIFIERS, type Navigations } from '../../lib/content/types.ts';
import { handedOver, handOver } from './handoff.ts';
import { getNavigations } from '../connectors/contentful/index.ts';
import {
  bigcommerce,
  contentful,
  features,
  i18nConfig,
  lastGoodDirectory,
  reviews,
  shopReviewSite,
} from '../config/config.ts';
import { lastGoodCopy } from './last-good.ts';
import { currentBanner } from '../../lib/commerce/banner.ts';

import type { LayoutData, SiteRating } from './layout-types.ts';

export type { LayoutData, SiteRating };

export const EMPTY_NAVIGATIONS: Navigations = Object.freeze({ main: [], sidebar: [], footer: [] });

export const EMPTY_LAYOUT_DATA: LayoutData = Object.freeze({
  categories: [],
  banner: null,
  navigations: EMPTY_NAVIGATIONS,
  siteRating: null,
  currency: i18nConfig.currency,
});

/** The named navigations, or their last good copy, or none (logged): menus then use the categories. */
async function readNavigations(categories: readonly CategoryNode[]): Promise<Navigations> {
  const paths = categoryPaths(categories);
  try {
    return await lastGoodCopy(
      'navigations',
      () => getNavigations(contentful(), { categoryPath: (id) => paths.get(id) ?? null }),
      lastGoodDirectory(),
    );
  } catch (error) {
    logFailure(
      'layout',
      `No navigation (${Object.values(NAVIGATION_IDENTIFIERS).join(', ')}): menus are built from the category tree`,
      error,
    );
    return EMPTY_NAVIGATIONS;
  }
}

/**
 * The shop's guaranteed-reviews rating (spec §1, §3), null with the reviews flag off, for a
 * brand without a site id, or when the provider cannot be read (logged: the banner then shows
 * its link without stars, the page never fails for it).
 */
async function readSiteRating(): Promise<SiteRating | null> {
  if (!features.reviews || shopReviewSite.siteId === null) return null;
  try {
    const rating = await reviews().getSiteRating(shopReviewSite.siteId);
    if (rating === null || rating.total === 0) return null;
    return { average: rating.average, total: rating.total };
  } catch (error) {
    logFailure('layout', 'No guaranteed-reviews site rating', error);
    return null;
  }
}

async function fetchLayoutData(): Promise<LayoutData> {
  const client = bigcommerce();
  const [tree, metafields, banners, siteRating, currency] = await Promise.all([
    getCategoryTree(client),
    getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
    getAllBanners(client),
    readSiteRating(),
    readCurrency(client),
  ]);
  for (const { id, url, reason } of refusedCategories(tree)) {
    logRefused('category', id, `url ${JSON.stringify(url.slice(0, 200))}: ${reason}`);
  }
  const categories = visibleTree(tree, hiddenCategoryIds(metafields));
  const navigations = await readNavigations(categories);
  return {
    categories,
    banner: currentBanner(banners),
    navigations,
    siteRating,
    currency,
  };
}

/** The channel's default currency, else the configured one (logged: the cookie still works). */
async function readCurrency(client: BigCommerceClient): Promise<string> {
  try {
    return currencyCode((await getChannel(client)).defaultCurrency) ?? i18nConfig.currency;
  } catch (error) {
    logFailure('layout', 'Could not read the channel currency', error);
    return i18nConfig.currency;
  }
}

/**
 * The scope under which the layout's markup is rendered once and reused (Shared.astro,
 * memo.ts): the layout data of the build or process. None in `astro dev`, where an edited
 * header or footer component must show on the next page although the data stays loaded.
 */
export function sharingScope(data: LayoutData): LayoutData | undefined {
  return import.meta.env.DEV ? undefined : data;
}

let pending: Promise<LayoutData> | undefined;

/** The main thread's layout data, handed to a render thread of the build (handoff.ts). */
function handedLayoutData(): Promise<LayoutData> | undefined {
  const handed = handedOver('layout-data');
  return handed === undefined ? undefined : Promise.resolve(handed);
}
let loaded: LayoutData | undefined;

/**
 * The layout data, fetched once per build (and once per server process for on-demand pages,
 * which a new release replaces): every page shares the same promise. A failure is not kept,
 * so the next call tries again; the build fails rather than publish pages without navigation.
 * A build's render thread takes the main thread's copy, handed in before its first page
 * (handoff.ts).
 */
export function loadLayoutData(): Promise<LayoutData> {
  pending ??= (handedLayoutData() ?? fetchLayoutData()).then(
    (data) => {
      handOver('navigations', data.navigations);
      handOver('layout-categories', data.categories);
      handOver('layout-data', data);
      return (loaded = data);
    },
    (error: unknown) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
}

/**
 * `load`'s value once the layout data is loaded too: for an on-demand page, whose layout reads
 * upstream the first time a process renders one. Read with the page's own data (inside
 * `readForPage`), a layout that cannot be read fails the page like its own read (the upstream
 * error page, with the failure's status) instead of throwing from inside the layout (a 500).
 */
export async function withLayoutData<T>(load: () => Promise<T>): Promise<T> {
  const [value] = await Promise.all([load(), loadLayoutData()]);
  return value;
}

/**
 * The layout data already loaded by this process, else the empty one, without calling
 * upstream: for the error page of a request whose upstream calls just failed.
 */
export function loadedLayoutData(): LayoutData {
  return loaded ?? EMPTY_LAYOUT_DATA;
}

/** For error pages, which must render even when the commerce API is down: empty data then. */
export async function loadLayoutDataOrEmpty(): Promise<LayoutData> {
  try {
    return await loadLayoutData();
  } catch (error) {
    logFailure('layout', 'Could not load the layout data', error);
    return EMPTY_LAYOUT_DATA;
  }
}
