/**
 * The content service's calls (spec §7 "Content service"): public tags, the named
 * navigations, sleep content, content pages and technology blocks, each one Content Delivery
 * API query (paged by 1000 where a list may be long) resolved and mapped to the domain types.
 * Every function takes the `ContentfulClient` first, so the build, the API middleware and the
 * integration tests (against the sandbox) share them. Argument schemas shared with the API are
 * here too.
 */
import { z } from 'zod';
import { screenContent } from '../../../lib/content/content-routes.ts';
import { logRefused } from '../../config/refused.ts';
import { navigationEntries, type NavigationOptions } from '../../../lib/content/navigation.ts';
import { sortNewestFirst } from '../../../lib/content/sleep-content.ts';
import { toContentTag } from '../../../lib/content/tags.ts';
import {
  NAVIGATION_IDENTIFIERS,
  type ContentPage,
  type ContentTag,
  type NavigationEntry,
  type Navigations,
  type SiteContent,
  type SleepContent,
  type Technology,
} from '../../../lib/content/types.ts';
import type { SearchParams } from '../http/upstream-client.ts';
import type { ContentfulClient } from './client.ts';
import { TECHNOLOGY_COMPONENT, toContentPage, toSleepContent, toTechnology } from './entries.ts';
import { resolveCollection, type ResolvedEntry } from './resolve.ts';
import { CollectionSchema, TagCollectionSchema, TagSchema } from './schemas.ts';

/** Contentful's largest page. */
export const MAX_PAGE_SIZE = 1000;
/** Most pages read for one list (100,000 entries): a reply that never ends is cut. */
const MAX_PAGES = 100;

/** The three named navigations (spec §3), as the API's argument. */
export const NavigationIdentifierSchema = z.enum([
  NAVIGATION_IDENTIFIERS.main,
  NAVIGATION_IDENTIFIERS.sidebar,
  NAVIGATION_IDENTIFIERS.footer,
]);

/** Names of technology blocks (a product's `technology` values), as the API's argument. */
export const TechnologyNamesSchema = z
  .array(z.string().trim().min(1).max(200))
  .max(50)
  .transform((names) => [...new Set(names)]);

/** Every page of an entries query, resolved (`include` levels of links). */
async function allEntries(
  client: ContentfulClient,
  params: SearchParams,
): Promise<ResolvedEntry[]> {
  const items: ResolvedEntry[] = [];
  for (let page = 0, skip = 0; page < MAX_PAGES; page++) {
    const reply = await client.get('entries', CollectionSchema, {
      ...params,
      limit: MAX_PAGE_SIZE,
      skip,
    });
    items.push(...resolveCollection(reply, { scheme: client.scheme }));
    skip += reply.items.length;
    if (reply.items.length === 0 || skip >= reply.total) break;
  }
  return items;
}

/** The first entry of a query (`limit=1`), resolved, or null. */
async function firstEntry(
  client: ContentfulClient,
  params: SearchParams,
): Promise<ResolvedEntry | null> {
  const reply = await client.get('entries', CollectionSchema, { ...params, limit: 1 });
  return resolveCollection(reply, { scheme: client.scheme })[0] ?? null;
}

/**
 * spec §7 getTags: the public tags, each name split at its first colon into type and name
 * (`format:podcast` → `format` / `podcast`). Malformed or private tags are left out.
 */
export async function getTags(client: ContentfulClient): Promise<ContentTag[]> {
  const tags: ContentTag[] = [];
  const seen = new Set<string>();
  for (let page = 0, skip = 0; page < MAX_PAGES; page++) {
    const reply = await client.get('tags', TagCollectionSchema, { limit: MAX_PAGE_SIZE, skip });
    for (const item of reply.items) {
      const parsed = TagSchema.safeParse(item);
      if (!parsed.success || seen.has(parsed.data.sys.id)) continue;
      const { name, sys } = parsed.data;
      if (sys.visibility !== undefined && sys.visibility !== 'public') continue;
      if (name.trim() === '') continue;
      seen.add(sys.id);
      tags.push(toContentTag(sys.id, name));
    }
    skip += reply.items.length;
    if (reply.items.length === 0 || reply.total === undefined || skip >= reply.total) break;
  }
  return tags;
}

async function tagIndex(client: ContentfulClient): Promise<Map<string, ContentTag>> {
  return new Map((await getTags(client)).map((tag) => [tag.id, tag]));
}

/**
 * spec §7: the navigation entries of the navigation named `identifier` (searched by type
 * `navigation` and `fields.identifier`, limit 1, links resolved 10 levels deep); an empty list
 * when there is none. Category pages take their path from `options.categoryPath`.
 */
export async function getNavigation(
  client: ContentfulClient,
  identifier: string,
  options: NavigationOptions,
): Promise<NavigationEntry[]> {
  const root = await firstEntry(client, {
    content_type: 'navigation',
    'fields.identifier': identifier,
    include: 10,
  });
  return root === null ? [] : navigationEntries(root, options);
}

/** The three named navigations of spec §3 (Main Navigation, Sidebar Navigation, Footer). */
export async function getNavigations(
  client: ContentfulClient,
  options: NavigationOptions,
): Promise<Navigations> {
  const [main, sidebar, footer] = await Promise.all([
    getNavigation(client, NAVIGATION_IDENTIFIERS.main, options),
    getNavigation(client, NAVIGATION_IDENTIFIERS.sidebar, options),
    getNavigation(client, NAVIGATION_IDENTIFIERS.footer, options),
  ]);
  return { main, sidebar, footer };
}

// Sleep content: related entries (1 level), their pictures (2), assets in rich text (1).
const SLEEP_CONTENT_INCLUDE = 3;

/** Every "Les yeux fermés" entry, newest first (`publishedAt`), related entries one level deep. */
export async function getSleepContents(client: ContentfulClient): Promise<SleepContent[]> {
  const [entries, tags] = await Promise.all([
    allEntries(client, {
      content_type: 'sleepContent',
      order: '-fields.publishedAt,sys.id',
      include: SLEEP_CONTENT_INCLUDE,
    }),
    tagIndex(client),
  ]);
  const seen = new Set<string>();
  const mapped = entries.flatMap((entry) => {
    const content = toSleepContent(entry, tags);
    // One entry per slug (its page): the newest wins.
    if (content === null || seen.has(content.slug)) return [];
    seen.add(content.slug);
    return [content];
  });
  return sortNewestFirst(mapped);
}

// Content pages: entries and assets embedded in the body (1 level), with their own links (2).
const CONTENT_PAGE_INCLUDE = 2;

/** Every content page (legal pages, help, contact, affiliate...), by slug. */
export async function getContentPages(client: ContentfulClient): Promise<ContentPage[]> {
  const entries = await allEntries(client, {
    content_type: 'contentPage',
    order: 'fields.slug,sys.id',
    include: CONTENT_PAGE_INCLUDE,
  });
  const seen = new Set<string>();
  return entries.flatMap((entry) => {
    const page = toContentPage(entry);
    if (page === null || seen.has(page.slug)) return [];
    seen.add(page.slug);
    return [page];
  });
}

/**
 * spec §7: the technology blocks (`productContent` entries of component
 * `ProductContentTechnologies`), all of them or those named `names` (a product's `technology`
 * values, matched exactly after trimming, in the order of `names`).
 */
export async function getTechnologies(
  client: ContentfulClient,
  names?: readonly string[],
): Promise<Technology[]> {
  const wanted = names?.map((name) => name.trim()).filter((name) => name !== '');
  if (wanted?.length === 0) return [];
  // `[in]` takes a comma-separated list: a name holding a comma is matched here only.
  const inList = wanted?.every((name) => !name.includes(',')) ? wanted.join(',') : undefined;
  const entries = await allEntries(client, {
    content_type: 'productContent',
    'fields.component': TECHNOLOGY_COMPONENT,
    'fields.name[in]': inList,
    order: 'sys.id',
    include: 2,
  });
  const byName = new Map<string, Technology>();
  for (const entry of entries) {
    const technology = toTechnology(entry);
    if (technology !== null && !byName.has(technology.name)) {
      byName.set(technology.name, technology);
    }
  }
  if (wanted === undefined) return [...byName.values()];
  return wanted.flatMap((name) => {
    const technology = byName.get(name);
    return technology === undefined ? [] : [technology];
  });
}

/**
 * Everything the pre-rendered content pages show (the sleep-content entries, the content pages,
 * the technology blocks, the public tags): what a build reads once, and what a kept build reads
 * again when a content entry or asset is published.
 */
export async function getSiteContent(client: ContentfulClient): Promise<SiteContent> {
  const [sleepContents, pages, technologies, tags] = await Promise.all([
    getSleepContents(client),
    getContentPages(client),
    getTechnologies(client),
    getTags(client),
  ]);
  // Entries whose slug cannot be their page (`index`, a route of the shop, dot segments...)
  // are left out of every build, publish and on-demand page, and logged.
  const screened = screenContent({ sleepContents, pages, technologies, tags });
  for (const entry of screened.refused) {
    logRefused(entry.kind, entry.id, `slug ${JSON.stringify(entry.slug)}: ${entry.reason}`);
  }
  return screened.content;
}
