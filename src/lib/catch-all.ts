/**
 * The catch-all route `/{path}` (spec §2, `src/pages/[...path].astro`, rendered on request for
 * every path no pre-rendered page answers): which kind of page a path can be, hence which
 * service it reads, and which published entry it shows. What appeared after the last build is
 * served this way until the next build pre-renders it. Pure.
 */
import { isContentSlug } from './content/content-routes.ts';
import { SLEEP_CONTENT_ROOT, sleepListPageOf } from './content/list-view.ts';
import type { ContentPage, SleepContent } from './content/types.ts';

/** `p/{id}/{slug}`: a product created in the commerce service after the build. */
const PRODUCT = /^p\/([1-9][0-9]{0,9})\/[a-z0-9-]{1,200}$/;
const SLEEP_PREFIX = `${SLEEP_CONTENT_ROOT.slice(1)}/`;

/** What a catch-all path (without its leading `/`) can be. */
export type CatchAllTarget =
  /** `/p/{id}/{slug}`: read from the commerce service. */
  | { kind: 'product'; productId: number }
  /** `/les-yeux-fermes/page/{n}` (digits only): a page of the sleep-content list. */
  | { kind: 'sleep-list'; page: number }
  /** `/les-yeux-fermes/{slug}`: a sleep-content entry. */
  | { kind: 'sleep-entry'; slug: string }
  /** `/{slug}`, nested slugs included, no reserved first segment: a content page. */
  | { kind: 'content-page'; slug: string }
  /** Anything else: no upstream read of its own (404, or a category's 301). */
  | { kind: 'none' };

/** The kind of page `path` (Astro's `params.path`, no leading `/`) can be. */
export function catchAllTarget(path: string): CatchAllTarget {
  const product = PRODUCT.exec(path);
  if (product) return { kind: 'product', productId: Number(product[1]) };
  if (path.startsWith(SLEEP_PREFIX)) {
    const page = sleepListPageOf(`/${path}`);
    if (page !== null) return { kind: 'sleep-list', page };
    return { kind: 'sleep-entry', slug: path.slice(SLEEP_PREFIX.length) };
  }
  if (isContentSlug(path)) return { kind: 'content-page', slug: path };
  return { kind: 'none' };
}

/** The service a target is read from: the commerce one, the content one, or none. */
export function catchAllSource(target: CatchAllTarget): 'commerce' | 'content' | null {
  if (target.kind === 'product') return 'commerce';
  return target.kind === 'none' ? null : 'content';
}

/** The published entry a sleep-entry or content-page target shows, else null (404). */
export function contentEntryOf(
  target: CatchAllTarget,
  content: { sleepContents: readonly SleepContent[]; pages: readonly ContentPage[] },
): { kind: 'sleep'; entry: SleepContent } | { kind: 'page'; page: ContentPage } | null {
  if (target.kind === 'sleep-entry') {
    const entry = content.sleepContents.find((candidate) => candidate.slug === target.slug);
    return entry ? { kind: 'sleep', entry } : null;
  }
  if (target.kind === 'content-page') {
    const page = content.pages.find((candidate) => candidate.slug === target.slug);
    return page ? { kind: 'page', page } : null;
  }
  return null;
}
