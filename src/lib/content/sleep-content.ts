/**
 * Rules of the "Les yeux fermés" area (spec §1, §2, §9): card links, episode and duration
 * labels, the list's pages (`/les-yeux-fermes/page/{page}`, digits only) and its tag filter,
 * the scroll offset. Pure: usable anywhere (pages, islands, tests).
 */
import type { Page } from '../commerce/types.ts';
import { matchesTag } from './tags.ts';
import type { ContentTag, SleepContent } from './types.ts';

/** Route of the sleep-content list (spec §2). */
export const SLEEP_CONTENT_PATH = '/les-yeux-fermes';
/** Entries per page of the list. */
export const SLEEP_CONTENT_PAGE_SIZE = 12;
/** spec §9: scroll offset of the sleep-content page, under and from this viewport width. */
export const SLEEP_SCROLL_BREAKPOINT = 768;
export const SLEEP_SCROLL_MOBILE = 500;
export const SLEEP_SCROLL_DESKTOP = 900;

/** Longest page segment read (a page number beyond this is no page). */
const MAX_PAGE_DIGITS = 6;

/** spec §2: a card links to `/les-yeux-fermes/{url}` (the slug as one escaped path segment). */
export function sleepContentPath(slug: string): string {
  return `${SLEEP_CONTENT_PATH}/${encodeURIComponent(slug.trim())}`;
}

/** The list's page `n`: the list itself for page 1, `/les-yeux-fermes/page/{n}` after. */
export function sleepContentPagePath(page: number): string {
  return page <= 1 ? SLEEP_CONTENT_PATH : `${SLEEP_CONTENT_PATH}/page/${page}`;
}

/** spec §2: the episode number padded to two digits (`1` → `01`, `12`, `123`). */
export function episodeLabel(episode: number): string {
  const n = Math.trunc(Math.abs(episode));
  return String(Number.isFinite(n) ? n : 0).padStart(2, '0');
}

/** An episode number as authored: a positive integer, else null (no number shown). */
export function episodeNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** A duration in whole minutes (a positive number, rounded, at least 1), else null (none shown). */
export function durationMinutes(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  return Math.min(Math.max(1, Math.round(value)), 100_000);
}

/**
 * spec §2: the duration in minutes as the card shows it, through the shop's translator
 * (`sleep.duration`: `{{count}} min`); empty for no duration.
 */
export function durationLabel(
  value: number | null,
  translate: (key: 'sleep.duration', values: { count: number }) => string,
): string {
  const minutes = durationMinutes(value);
  return minutes === null ? '' : translate('sleep.duration', { count: minutes });
}

/** Number of pages of `total` entries (at least 1: an empty list is one empty page). */
export function pageCount(total: number, size: number = SLEEP_CONTENT_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, size)));
}

/**
 * The page number of a `/page/{page}` segment, or null (the route answers 404): digits only,
 * no sign, no leading zero, no empty segment, from 1 to `totalPages`.
 */
export function parsePageNumber(
  segment: string | null | undefined,
  totalPages: number,
): number | null {
  if (typeof segment !== 'string' || segment.length > MAX_PAGE_DIGITS) return null;
  if (!/^[1-9][0-9]*$/.test(segment)) return null;
  const page = Number(segment);
  return page <= totalPages ? page : null;
}

/** spec §9: where the sleep-content page scrolls to (500 under 768 px wide, 900 from 768). */
export function sleepScrollOffset(viewportWidth: number): number {
  return viewportWidth < SLEEP_SCROLL_BREAKPOINT ? SLEEP_SCROLL_MOBILE : SLEEP_SCROLL_DESKTOP;
}

/**
 * The entries carrying a tag named `tag` (its name `podcast`, label `format:podcast` or id,
 * case-insensitive); every entry for an empty or missing filter.
 */
export function filterByTag<T extends { tags: readonly ContentTag[] }>(
  entries: readonly T[],
  tag: string | null | undefined,
): T[] {
  if (typeof tag !== 'string' || tag.trim() === '') return [...entries];
  return entries.filter((entry) => entry.tags.some((t) => matchesTag(t, tag)));
}

/** The tags that some entry carries, in the order of `tags` (the filter's choices). */
export function usedTags(
  tags: readonly ContentTag[],
  entries: readonly { tags: readonly ContentTag[] }[],
): ContentTag[] {
  const used = new Set(entries.flatMap((entry) => entry.tags.map((tag) => tag.id)));
  return tags.filter((tag) => used.has(tag.id));
}

/** Newest first by `publishedAt` (ISO dates; an unreadable date sorts last), then by title. */
export function sortNewestFirst<T extends Pick<SleepContent, 'publishedAt' | 'title'>>(
  entries: readonly T[],
): T[] {
  const time = (entry: T) => {
    const value = Date.parse(entry.publishedAt);
    return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
  };
  return [...entries].sort(
    (a, b) => time(b) - time(a) || a.title.localeCompare(b.title, 'fr') || 0,
  );
}

/**
 * Page `page` (from 1) of `entries`, `size` per page, with the listing's pagination shape.
 * A page past the last one is empty (its route answers 404 by `parsePageNumber`).
 */
export function paginate<T>(
  entries: readonly T[],
  page: number,
  size: number = SLEEP_CONTENT_PAGE_SIZE,
): Page<T> {
  const perPage = Math.max(1, Math.trunc(size));
  const currentPage = Math.max(1, Math.trunc(page) || 1);
  const start = (currentPage - 1) * perPage;
  const items = entries.slice(start, start + perPage);
  return {
    items,
    pagination: {
      total: entries.length,
      count: items.length,
      perPage,
      currentPage,
      totalPages: pageCount(entries.length, perPage),
    },
  };
}
