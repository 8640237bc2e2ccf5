/**
 * Resolved Contentful entries mapped to the shop's content domain types
 * (`src/lib/content/types.ts`): assets, tags, sleep content, content pages, technology
 * blocks. Each mapper checks the fields it reads and answers null for an entry the shop
 * cannot show (no title, no usable slug...), which is then left out, never a crash. Rich
 * text is normalised (`normaliseRichText`: acyclic, bounded, JSON-safe) and checked with the
 * rich-text schema. The content model is in `README.md`.
 */
import { episodeNumber, durationMinutes } from '../../../lib/content/sleep-content.ts';
import { contentPagePath, sleepContentEntryPath } from '../../../lib/content/paths.ts';
import { contentSlugRefusal, sleepSlugRefusal } from '../../../lib/shop-routes.ts';
import { logRefused } from '../../config/refused.ts';
import { normaliseRichText } from '../../../lib/content/rich-text.ts';
import { httpHref } from '../../../lib/url-safety.ts';
import type {
  ContentAsset,
  ContentPage,
  ContentTag,
  RichTextDocument,
  SleepContent,
  Technology,
} from '../../../lib/content/types.ts';
import { contentTypeOf, type ResolvedEntry } from './resolve.ts';
import { AssetSchema, RichTextDocumentSchema } from './schemas.ts';

/** `component` of the technology blocks among `productContent` entries. */
export const TECHNOLOGY_COMPONENT = 'ProductContentTechnologies';

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function isResolvedEntry(value: unknown): value is ResolvedEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { sys, fields } = value as Partial<ResolvedEntry>;
  return sys?.type === 'Entry' && typeof fields === 'object';
}

/** A resolved asset as a `ContentAsset` (absolute http(s) URL), or null. */
export function toContentAsset(value: unknown): ContentAsset | null {
  const parsed = AssetSchema.safeParse(value);
  if (!parsed.success) return null;
  const { sys, fields } = parsed.data;
  const url = httpHref(fields.file?.url);
  if (url === null || fields.file === undefined) return null;
  return {
    id: sys.id,
    title: text(fields.title),
    description: text(fields.description),
    url,
    contentType: fields.file.contentType,
    width: fields.file.details?.image?.width ?? null,
    height: fields.file.details?.image?.height ?? null,
  };
}

/** A rich-text field as a checked, acyclic document, or null (absent, empty or unusable). */
export function toRichText(value: unknown): RichTextDocument | null {
  const normalised = normaliseRichText(value);
  if (normalised === null) return null;
  const parsed = RichTextDocumentSchema.safeParse(normalised);
  return parsed.success ? parsed.data : null;
}

/** The public tags of an entry (`metadata.tags`), in order, by the tag index; unknown ids dropped. */
export function tagsOf(entry: ResolvedEntry, tags: ReadonlyMap<string, ContentTag>): ContentTag[] {
  const seen = new Set<string>();
  const result: ContentTag[] = [];
  for (const link of entry.metadata.tags) {
    const tag = tags.get(link.sys.id);
    if (tag === undefined || seen.has(tag.id)) continue;
    seen.add(tag.id);
    result.push(tag);
  }
  return result;
}

function isoDate(...values: unknown[]): string | null {
  for (const value of values) {
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value.trim();
  }
  return null;
}

/**
 * A `sleepContent` entry, or null (not one, no title, no usable slug, no date). `depth` 0 maps
 * its `related` entries too (their own `related` left empty); 1 does not.
 */
export function toSleepContent(
  entry: ResolvedEntry,
  tags: ReadonlyMap<string, ContentTag>,
  depth = 0,
): SleepContent | null {
  if (contentTypeOf(entry) !== 'sleepContent') return null;
  const { fields } = entry;
  const title = text(fields.title);
  const slug = text(fields.slug);
  const publishedAt = isoDate(fields.publishedAt, entry.sys.createdAt);
  if (title !== '' && sleepContentEntryPath(slug) === null && depth === 0) {
    logRefused('sleep content', entry.sys.id, slugReason(slug, sleepSlugRefusal(slug)));
  }
  if (title === '' || sleepContentEntryPath(slug) === null || publishedAt === null) return null;
  const related: SleepContent[] = [];
  if (depth === 0 && Array.isArray(fields.related)) {
    const seen = new Set([entry.sys.id]);
    for (const item of fields.related) {
      if (!isResolvedEntry(item) || seen.has(item.sys.id)) continue;
      seen.add(item.sys.id);
      const mapped = toSleepContent(item, tags, 1);
      if (mapped !== null) related.push(mapped);
    }
  }
  return {
    id: entry.sys.id,
    title,
    slug,
    excerpt: text(fields.excerpt),
    episode: episodeNumber(fields.episode),
    duration: durationMinutes(fields.duration),
    image: toContentAsset(fields.image),
    audio: toContentAsset(fields.audio),
    video: toContentAsset(fields.video),
    body: toRichText(fields.body),
    tags: tagsOf(entry, tags),
    related,
    publishedAt,
  };
}

/** The log line's reason for a slug that makes no clean path (`logRefused`). */
function slugReason(slug: string, refusal: string | null): string {
  return `slug ${JSON.stringify(slug.slice(0, 200))}: ${refusal ?? 'not a clean path'}`;
}

/** A `contentPage` entry, or null (not one, no title, no usable slug: logged). */
export function toContentPage(entry: ResolvedEntry): ContentPage | null {
  if (contentTypeOf(entry) !== 'contentPage') return null;
  const { fields } = entry;
  const title = text(fields.title);
  const path = typeof fields.slug === 'string' ? contentPagePath(fields.slug) : null;
  if (title !== '' && path === null) {
    const slug = text(fields.slug);
    logRefused('content page', entry.sys.id, slugReason(slug, contentSlugRefusal(slug)));
  }
  if (title === '' || path === null) return null;
  return {
    id: entry.sys.id,
    title,
    // The slug as the path holds it: no leading or trailing slash, segments trimmed.
    slug: text(fields.slug)
      .replace(/^\/+|\/+$/g, '')
      .split('/')
      .map((segment) => segment.trim())
      .join('/'),
    description: text(fields.description),
    body: toRichText(fields.body),
    updatedAt: isoDate(entry.sys.updatedAt, entry.sys.createdAt) ?? '',
  };
}

/** A technology block (`productContent` of component `ProductContentTechnologies`), or null. */
export function toTechnology(entry: ResolvedEntry): Technology | null {
  if (contentTypeOf(entry) !== 'productContent') return null;
  const { fields } = entry;
  if (text(fields.component) !== TECHNOLOGY_COMPONENT) return null;
  const name = text(fields.name);
  if (name === '') return null;
  return {
    id: entry.sys.id,
    name,
    title: text(fields.title) || name,
    description: toRichText(fields.description),
    image: toContentAsset(fields.image),
  };
}
