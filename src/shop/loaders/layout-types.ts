/**
 * The layout data's shape (layout-data.ts reads it), apart so that the build's hand-over
 * (handoff.ts), which layout-data.ts writes to, can name it without an import cycle.
 */
import type { Banner, CategoryNode } from '../../lib/commerce/types.ts';
import type { Navigations } from '../../lib/content/types.ts';

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
  /** The content service's named navigations; empty lists when unavailable (menus then use the categories). */
  navigations: Navigations;
  /** Site rating of the reassurance banner (reviews connector), null while unknown. */
  siteRating: SiteRating | null;
  /**
   * The channel's default currency (`getChannel`, spec §9), for the currency cookie; the
   * configured currency when the channel cannot be read (analytics always say EUR).
   */
  currency: string;
}
