/**
 * Shop paths of the content service's entries (content model in
 * `src/shop/connectors/contentful/README.md`): `page` → `/{slug}`, `contentPage` → `/{slug}` (nested
 * slugs allowed), `brandCorner` → `/marque/{slug}`, `sleepContent` → `/les-yeux-fermes/{slug}`.
 * A slug that cannot make a clean local path (dot segments, control characters, another
 * origin...) gives null: the link is not rendered. Pure.
 */
import { hasControlCharacters, localPath } from '../url-safety.ts';
import { SLEEP_CONTENT_PATH } from './sleep-content.ts';

/** Longest slug read (a longer one is an authoring mistake or an attack). */
const MAX_SLUG_LENGTH = 512;

/** The path segments of a slug, each escaped; null for an unusable slug. */
function segments(slug: string): string[] | null {
  if (slug.length > MAX_SLUG_LENGTH) return null;
  if (hasControlCharacters(slug) || slug.includes('\\')) return null;
  const parts = slug
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .split('/');
  if (parts.length === 1 && parts[0] === '') return [];
  if (parts.some((part) => part.trim() === '' || part === '.' || part === '..')) return null;
  return parts.map((part) => encodeURIComponent(part.trim()));
}

function pathOf(parts: string[] | null): string | null {
  if (parts === null) return null;
  const path = `/${parts.join('/')}`;
  // Same rule as every other local path of the shop (url-safety.ts).
  return localPath(path) === path ? path : null;
}

/** A `page` entry: `/` + slug (`''` is the home page `/`). */
export function pagePath(slug: string): string | null {
  return pathOf(segments(slug));
}

/** A `contentPage` entry: `/` + slug (`cgv`, `aide/livraison`); an empty slug is no page. */
export function contentPagePath(slug: string): string | null {
  const parts = segments(slug);
  return parts === null || parts.length === 0 ? null : pathOf(parts);
}

/** A `brandCorner` entry: `/marque/{slug}` (one segment). */
export function brandCornerPath(slug: string): string | null {
  const parts = segments(slug);
  return parts?.length === 1 ? pathOf(['marque', ...parts]) : null;
}

/** A `sleepContent` entry: `/les-yeux-fermes/{slug}` (one segment). */
export function sleepContentEntryPath(slug: string): string | null {
  const parts = segments(slug);
  return parts?.length === 1 ? pathOf([SLEEP_CONTENT_PATH.slice(1), ...parts]) : null;
}

/**
 * The path of an entry of `contentType` with `slug`, for links to entries from rich text;
 * null for a type without a page of its own.
 */
export function entryPath(contentType: string, slug: string | null | undefined): string | null {
  if (typeof slug !== 'string') return null;
  switch (contentType) {
    case 'page':
      return pagePath(slug);
    case 'contentPage':
      return contentPagePath(slug);
    case 'brandCorner':
      return brandCornerPath(slug);
    case 'sleepContent':
      return sleepContentEntryPath(slug);
    default:
      return null;
  }
}
