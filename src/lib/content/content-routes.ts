/**
 * Which content-page slugs the pre-rendered route `/{slug}` takes (spec §2 catch-all content
 * page): one plain path segment that no route of the shop already answers. Other slugs (nested
 * ones like `aide/livraison`) are served on request by the catch-all route. What a slug may be
 * at all (canonical, not `index`, not a route of the shop) is the route table's rule
 * (`../shop-routes.ts`). Pure.
 */
import { contentSlugRefusal, isCanonicalSegment, sleepSlugRefusal } from '../shop-routes.ts';
import type { ContentPage, SleepContent } from './types.ts';

/** A slug the static routes can take as one path segment: lower-case letters, digits, hyphens. */
export function isPlainSlug(slug: string): boolean {
  return isCanonicalSegment(slug);
}

/** The slug can be pre-rendered as `/{slug}`. */
export function isStaticContentSlug(slug: string): boolean {
  return isPlainSlug(slug) && contentSlugRefusal(slug) === null;
}

/** The slug can be served by the catch-all route: canonical segments, no route of the shop first. */
export function isContentSlug(slug: string): boolean {
  return contentSlugRefusal(slug) === null;
}

/** An entry of the content service left out of the site, and why (logged by its reader). */
export interface RefusedEntry {
  kind: 'content page' | 'sleep content';
  id: string;
  slug: string;
  reason: string;
}

/**
 * The content without the entries whose slug cannot be their page (a content page named
 * `index` or `espace-revendeur`, a slug with dot segments...), and those entries: no build,
 * publish or on-demand render shows them.
 */
export function screenContent<
  T extends { pages: readonly ContentPage[]; sleepContents: readonly SleepContent[] },
>(content: T): { content: T; refused: RefusedEntry[] } {
  const refused: RefusedEntry[] = [];
  const pages = content.pages.filter((page) => {
    const reason = contentSlugRefusal(page.slug);
    if (reason !== null)
      refused.push({ kind: 'content page', id: page.id, slug: page.slug, reason });
    return reason === null;
  });
  const sleepContents = content.sleepContents.filter((entry) => {
    const reason = sleepSlugRefusal(entry.slug);
    if (reason !== null) {
      refused.push({ kind: 'sleep content', id: entry.id, slug: entry.slug, reason });
    }
    return reason === null;
  });
  if (refused.length === 0) return { content, refused };
  return { content: { ...content, pages, sleepContents }, refused };
}
