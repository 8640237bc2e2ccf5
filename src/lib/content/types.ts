/**
 * Domain types of the content service (spec §3 navigation entry, §1 sleep content, §7 content
 * service): what the Contentful connector (`src/shop/connectors/contentful/`) returns after parsing
 * and resolving links, and what pages and the layout render. Pure types, usable anywhere.
 *
 * The content model they come from (Contentful content type ids and fields) is described in
 * `src/shop/connectors/contentful/README.md`.
 */

/** A rich-text node as Contentful sends it (`nodeType`, `data`, `content` / `value`, `marks`). */
export interface RichTextNode {
  nodeType: string;
  data: Record<string, unknown>;
  content?: RichTextNode[];
  value?: string;
  marks?: { type: string }[];
}

/** A rich-text field: a `document` node. Embedded links are resolved by the connector into `data.target`. */
export interface RichTextDocument extends RichTextNode {
  nodeType: 'document';
  content: RichTextNode[];
}

/** A public tag (spec §7): `format:podcast` splits into type `format` and name `podcast`. */
export interface ContentTag {
  /** Contentful tag id (`formatPodcast`). */
  id: string;
  /** Full tag name as authored (`format:podcast`). */
  label: string;
  /** Part before the first colon, or null when the name holds none. */
  type: string | null;
  /** Part after the first colon (trimmed), or the whole name. */
  name: string;
}

/** An asset (picture, audio, video) with an absolute http(s) URL. */
export interface ContentAsset {
  id: string;
  title: string;
  description: string;
  /** Absolute URL (protocol-relative upstream URLs are resolved against the API's scheme). */
  url: string;
  contentType: string;
  width: number | null;
  height: number | null;
}

/** Link types of a navigation entry (spec §3). */
export type NavigationLinkType =
  | 'page'
  | 'brandCorner'
  | 'categoryPage'
  | 'callToActionExternal'
  | 'callToActionInternal'
  | 'callToActionFree'
  | 'contentPage'
  /** A heading grouping its `childrens`, with no link of its own. */
  | 'group';

/** A navigation entry (spec §3: key, label, title, slug, link, isExternalLink, url, childrens, titlePush, contentPush, identifier). */
export interface NavigationEntry {
  /** Contentful entry id. */
  key: string;
  type: NavigationLinkType;
  label: string;
  title: string | null;
  slug: string | null;
  /** Where the entry leads: a local path (`/cgv`, `/c/matelas`) or an external http(s) URL; null for a group. */
  url: string | null;
  isExternalLink: boolean;
  /** BigCommerce category id of a category page (the mega menu's push is keyed by it). */
  categoryId: number | null;
  /** Promotional push of a root category (mega menu). */
  titlePush: string | null;
  contentPush: RichTextDocument | null;
  identifier: string | null;
  childrens: NavigationEntry[];
}

/** The three named navigations of spec §3. */
export const NAVIGATION_IDENTIFIERS = {
  main: 'Main Navigation',
  sidebar: 'Sidebar Navigation',
  footer: 'Footer',
} as const;

export type NavigationName = keyof typeof NAVIGATION_IDENTIFIERS;

export type Navigations = Record<NavigationName, NavigationEntry[]>;

/** A "Les yeux fermés" entry (spec §1, §2 cards). */
export interface SleepContent {
  id: string;
  title: string;
  /** The `{url}` of `/les-yeux-fermes/{url}`. */
  slug: string;
  excerpt: string;
  /** Episode number, or null. Cards pad it to two digits. */
  episode: number | null;
  /** Duration in minutes, or null. */
  duration: number | null;
  image: ContentAsset | null;
  audio: ContentAsset | null;
  video: ContentAsset | null;
  body: RichTextDocument | null;
  tags: ContentTag[];
  /** Related entries (resolved, at most one level: their own `related` is empty). */
  related: SleepContent[];
  /** ISO date of publication (sort order: newest first). */
  publishedAt: string;
}

/** A content page of the catch-all route `/{url}` (legal pages, help, affiliate, contact...). */
export interface ContentPage {
  id: string;
  title: string;
  /** Path segments after `/` (`cgv`, `aide/livraison`), no leading or trailing slash. */
  slug: string;
  /** Meta description (plain text). */
  description: string;
  body: RichTextDocument | null;
  updatedAt: string;
}

/** A technology block of a product page (`ProductContentTechnologies`), matched by name to the product's `technology` custom field. */
export interface Technology {
  id: string;
  /** The value of the product's `technology` custom field it matches. */
  name: string;
  title: string;
  description: RichTextDocument | null;
  image: ContentAsset | null;
}

/** Everything the content service gives the pre-rendered pages, read once per build. */
export interface SiteContent {
  /** Newest first. */
  sleepContents: SleepContent[];
  pages: ContentPage[];
  technologies: Technology[];
  tags: ContentTag[];
}
