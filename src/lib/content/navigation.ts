/**
 * The content service's navigations (spec §3 navigation entry, §7) as `NavigationEntry` trees:
 * raw entries as the connector resolved them (`navigation`, `page`, `brandCorner`,
 * `categoryPage`, `callToAction`, `contentPage`, nested `navigation` groups) mapped to entries
 * with a checked link. Pure: the category paths come from a lookup the caller builds from the
 * visible category tree.
 *
 * Every link is checked by the shop's one URL-safety module (`url-safety.ts`): an external
 * link is an absolute `http(s)` URL without userinfo, an internal or free link a local path of
 * the shop. An entry whose link fails (a `javascript:` call to action, an unknown or hidden
 * category, an unresolved link still `{ sys: { type: 'Link' } }`, a type the shop does not
 * know) is dropped, as is a group left without links. Cycles and nesting are bounded.
 */
import { categoryPath as categoryPathOfUrl } from '../commerce/slug.ts';
import type { CategoryNode } from '../commerce/types.ts';
import { brandCornerPath, contentPagePath, pagePath } from './paths.ts';
import { normaliseRichText } from './rich-text.ts';
import type { NavigationEntry, NavigationLinkType } from './types.ts';
import { httpHref, localPath } from '../url-safety.ts';

/** Deepest group nesting read below a named navigation (the menus show two or three levels). */
export const MAX_NAVIGATION_DEPTH = 6;
/** Most entries kept in one list. */
export const MAX_NAVIGATION_CHILDREN = 200;
/** Most entries mapped for one navigation (a graph sharing groups could otherwise explode). */
export const MAX_NAVIGATION_ENTRIES = 2_000;

interface Walk {
  options: NavigationOptions;
  /** Entries mapped so far. */
  count: number;
}

export interface NavigationOptions {
  /** Shop path (`/c/...`) of a shown category by id; null when unknown or hidden. */
  categoryPath: (categoryId: number) => string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Id and content type of a resolved entry; null for a link left unresolved or anything else. */
export function entryIdentity(raw: unknown): { id: string; contentType: string } | null {
  if (!isRecord(raw) || !isRecord(raw.sys) || raw.sys.type === 'Link') return null;
  if (!isRecord(raw.fields)) return null;
  const id = text(raw.sys.id);
  const contentType = isRecord(raw.sys.contentType) ? raw.sys.contentType.sys : undefined;
  const type = isRecord(contentType) ? text(contentType.id) : '';
  return id === '' || type === '' ? null : { id, contentType: type };
}

/** The `/c/...` lookup of a (visible) category tree: hidden categories absent, their entries dropped. */
export function categoryPathLookup(
  tree: readonly CategoryNode[],
): (categoryId: number) => string | null {
  const paths = new Map<number, string>();
  const walk = (nodes: readonly CategoryNode[]) => {
    for (const node of nodes) {
      paths.set(node.id, categoryPathOfUrl(node.url));
      walk(node.children);
    }
  };
  walk(tree);
  return (id) => paths.get(id) ?? null;
}

interface Link {
  type: NavigationLinkType;
  url: string;
  slug: string | null;
  isExternalLink: boolean;
}

function callToAction(fields: Record<string, unknown>): Link | null {
  const kind = text(fields.type).toLowerCase();
  const value = typeof fields.url === 'string' ? fields.url : null;
  if (kind === 'external') {
    const url = httpHref(value);
    return url === null
      ? null
      : { type: 'callToActionExternal', url, slug: null, isExternalLink: true };
  }
  if (kind === 'internal' || kind === 'free') {
    const url = localPath(value);
    if (url === null) return null;
    const type = kind === 'internal' ? 'callToActionInternal' : 'callToActionFree';
    return { type, url, slug: null, isExternalLink: false };
  }
  return null;
}

function slugLink(
  type: NavigationLinkType,
  fields: Record<string, unknown>,
  path: (slug: string) => string | null,
): Link | null {
  if (typeof fields.slug !== 'string') return null;
  const url = path(fields.slug);
  return url === null ? null : { type, url, slug: fields.slug.trim(), isExternalLink: false };
}

function linkOf(
  contentType: string,
  fields: Record<string, unknown>,
  options: NavigationOptions,
): Link | null {
  switch (contentType) {
    case 'page':
      return slugLink('page', fields, pagePath);
    case 'brandCorner':
      return slugLink('brandCorner', fields, brandCornerPath);
    case 'contentPage':
      return slugLink('contentPage', fields, contentPagePath);
    case 'callToAction':
      return callToAction(fields);
    case 'categoryPage': {
      const id = fields.categoryId;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
      const found = options.categoryPath(id);
      const url = typeof found === 'string' ? localPath(found) : null;
      return url === null ? null : { type: 'categoryPage', url, slug: null, isExternalLink: false };
    }
    default:
      return null;
  }
}

function childrenOf(
  fields: Record<string, unknown>,
  walk: Walk,
  ancestors: ReadonlySet<string>,
): NavigationEntry[] {
  const raw = Array.isArray(fields.childrens) ? fields.childrens : [];
  const seen = new Set<string>();
  const entries: NavigationEntry[] = [];
  for (const child of raw) {
    if (entries.length >= MAX_NAVIGATION_CHILDREN) break;
    const entry = mapEntry(child, walk, ancestors);
    if (entry === null || seen.has(entry.key)) continue;
    seen.add(entry.key);
    entries.push(entry);
  }
  return entries;
}

function mapEntry(
  raw: unknown,
  walk: Walk,
  ancestors: ReadonlySet<string>,
): NavigationEntry | null {
  const identity = entryIdentity(raw);
  // A link back to an entry above (a cycle), or nesting past the bounds: dropped.
  if (identity === null || ancestors.has(identity.id)) return null;
  if (ancestors.size > MAX_NAVIGATION_DEPTH || walk.count >= MAX_NAVIGATION_ENTRIES) return null;
  walk.count++;
  const fields = (raw as { fields: Record<string, unknown> }).fields;
  const title = text(fields.title);
  const identifier = text(fields.identifier) || null;
  const base = {
    key: identity.id,
    label: title,
    title: title || null,
    identifier,
    categoryId: null,
    titlePush: null,
    contentPush: null,
  };
  if (identity.contentType === 'navigation') {
    const childrens = childrenOf(fields, walk, new Set([...ancestors, identity.id]));
    if (childrens.length === 0) return null;
    return { ...base, type: 'group', slug: null, url: null, isExternalLink: false, childrens };
  }
  if (title === '') return null;
  const link = linkOf(identity.contentType, fields, walk.options);
  if (link === null) return null;
  const entry: NavigationEntry = { ...base, ...link, childrens: [] };
  if (identity.contentType === 'categoryPage') {
    entry.categoryId = fields.categoryId as number;
    entry.titlePush = text(fields.titlePush) || null;
    entry.contentPush = normaliseRichText(fields.contentPush);
  }
  return entry;
}

/**
 * One resolved entry as a `NavigationEntry` (a group with its children, or a link), or null
 * when it is dropped (see the file comment).
 */
export function toNavigationEntry(
  raw: unknown,
  options: NavigationOptions,
): NavigationEntry | null {
  return mapEntry(raw, { options, count: 0 }, new Set());
}

/**
 * The entries of a named navigation (its `childrens`, mapped), in the authored order, or an
 * empty list when `root` is no navigation entry.
 */
export function navigationEntries(root: unknown, options: NavigationOptions): NavigationEntry[] {
  const identity = entryIdentity(root);
  if (identity?.contentType !== 'navigation') return [];
  const fields = (root as { fields: Record<string, unknown> }).fields;
  return childrenOf(fields, { options, count: 0 }, new Set([identity.id]));
}
