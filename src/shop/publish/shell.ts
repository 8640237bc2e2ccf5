/**
 * What every pre-rendered page's shell shows of the content service's navigations: the main
 * menu and mega menu, the menu sidebar and the footer's link columns, made by the layouts' own
 * functions (`src/shop/view-models/layout/menu.ts`, as `Header.astro` and `DefaultLayout.astro`
 * call them), for shoppers and for resellers. Two navigations that make equal menus render the
 * same shell, whatever else their entries say: a content page linked only from the footer's
 * legal group (shown under a fixed label in the legal bar, `legal-links.ts`), a slug or an
 * identifier no menu shows. Pure, no `astro:*`.
 *
 * The feature flags are left out (links to a switched-off page are dropped from every menu):
 * menus equal without them are equal with them, since a link is dropped for its own path.
 */
import type { CategoryNode } from '../../lib/commerce/types.ts';
import type { Navigations } from '../../lib/content/types.ts';
import { LEGAL_PATHS } from '../view-models/layout/legal-links.ts';
import { footerColumns, mainMenu, sidebarMenu } from '../view-models/layout/menu.ts';

/** The menus and footer columns of every page, for shoppers then resellers. */
export function shownMenus(tree: readonly CategoryNode[], navigations: Navigations): unknown {
  return [false, true].map((isReseller) => ({
    main: mainMenu(tree, navigations.main, { isReseller }),
    sidebar: sidebarMenu(tree, navigations.sidebar, { isReseller }),
    footer: footerColumns(tree, navigations.footer, { isReseller, exclude: LEGAL_PATHS }),
  }));
}
