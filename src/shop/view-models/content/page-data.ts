/**
 * Which content pages are pre-rendered, as pure functions of the content service's data read
 * at build: the pages' `getStaticPaths` call them, and so does the publisher
 * (`src/shop/publish/`) to decide which pages a content event touches.
 */
import { isStaticContentSlug } from '../../../lib/content/content-routes.ts';
import { sleepSlugRefusal } from '../../../lib/shop-routes.ts';
import { pageCount } from '../../../lib/content/sleep-content.ts';
import type { ContentPage, SleepContent } from '../../../lib/content/types.ts';

/** Sleep-content entries with a page `/les-yeux-fermes/{slug}` (others: the catch-all route). */
export function sleepEntryPages(sleepContents: readonly SleepContent[]): SleepContent[] {
  return sleepContents.filter((entry) => sleepSlugRefusal(entry.slug) === null);
}

/** Page numbers of `/les-yeux-fermes/page/{page}` (1 too; the list itself is page 1 again). */
export function sleepListPageNumbers(sleepContents: readonly SleepContent[]): number[] {
  return Array.from({ length: pageCount(sleepContents.length) }, (_, index) => index + 1);
}

/** Content pages with a page `/{slug}` (nested slugs: the catch-all route). */
export function staticContentPages(pages: readonly ContentPage[]): ContentPage[] {
  return pages.filter((page) => isStaticContentSlug(page.slug));
}
