/**
 * Data every page shell needs (spec §4 "Layout load"): the visible category tree and the
 * top-bar banner. Build and server side only: it calls the BigCommerce connectors.
 */
import { hiddenCategoryIds, HIDE_CATEGORY_KEY, visibleTree } from '../../lib/commerce/category.ts';
import type { Banner, CategoryNode } from '../../lib/commerce/types.ts';
import {
  getAllBanners,
  getCategoriesBatchMetafields,
  getCategoryTree,
} from '../../lib/server/bigcommerce/index.ts';
import { bigcommerce } from '../../lib/server/config.ts';
import { logFailure } from '../../lib/server/failures.ts';
import { currentBanner } from './banner.ts';

/** Promotional push of a root category's mega menu (content service, spec §3 titlePush / contentPush). */
export interface MenuPush {
  title: string;
  /** HTML authored in the content service. */
  html?: string;
  link?: string;
}

/** Guaranteed-reviews site rating (spec §3): average out of 5 and number of reviews. */
export interface SiteRating {
  average: number;
  total: number;
}

export interface LayoutData {
  /** Root categories, each with its visible children: only visible, not hide-category (spec §5). */
  categories: CategoryNode[];
  /** The banner of the top bar (spec §3), or null. */
  banner: Banner | null;
  /** Mega-menu pushes by root category id (filled by the content service). */
  pushes: Readonly<Record<number, MenuPush>>;
  /** Site rating of the reassurance banner (reviews connector), null while unknown. */
  siteRating: SiteRating | null;
}

export const EMPTY_LAYOUT_DATA: LayoutData = Object.freeze({
  categories: [],
  banner: null,
  pushes: {},
  siteRating: null,
});

async function fetchLayoutData(): Promise<LayoutData> {
  const client = bigcommerce();
  const [tree, metafields, banners] = await Promise.all([
    getCategoryTree(client),
    getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
    getAllBanners(client),
  ]);
  return {
    categories: visibleTree(tree, hiddenCategoryIds(metafields)),
    banner: currentBanner(banners),
    pushes: {},
    siteRating: null,
  };
}

let pending: Promise<LayoutData> | undefined;
let loaded: LayoutData | undefined;

/**
 * The layout data, fetched once per build (and once per server process for on-demand pages,
 * which a new release replaces): every page shares the same promise. A failure is not kept,
 * so the next call tries again; the build fails rather than publish pages without navigation.
 */
export function loadLayoutData(): Promise<LayoutData> {
  pending ??= fetchLayoutData().then(
    (data) => (loaded = data),
    (error: unknown) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
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
