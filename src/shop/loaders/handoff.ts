/**
 * What a build's pages were rendered from, handed to the Node side of the build process: a
 * build kept alive to publish edits (src/server/publish/publisher-loop.ts) compares the data before and
 * after an edit, and the content and navigations it did not re-read are the ones the pages
 * used. The pages run from a bundle with its own module instances, hence `globalThis`.
 *
 * The build's render threads (src/server/render-threads/parallel-prerender.ts) take the same data: a
 * thread is handed the layout and content the main thread's pages read (`buildSnapshot`,
 * `adoptSnapshot`), so every page of a release is rendered from one read.
 */
import type { CategoryNode } from '../../lib/commerce/types.ts';
import type { Navigations, SiteContent } from '../../lib/content/types.ts';
import type { Catalogue } from './catalogue-index.ts';
import type { LayoutData } from './layout-types.ts';

interface Handoff {
  /** The content pages read from; a kept build puts the new read here (siteContent()). */
  'site-content': SiteContent;
  navigations: Navigations;
  /** The layout's shown category tree, whose paths the navigations' category links take. */
  'layout-categories': readonly CategoryNode[];
  /** The catalogue the pages were rendered from (the release's listings are written from it). */
  catalogue: Catalogue;
  /** The layout data pages were rendered with (loadLayoutData() takes it when handed in). */
  'layout-data': LayoutData;
}

const SLOT = Symbol.for('literie.build-handoff');

type Holder = typeof globalThis & { [SLOT]?: Partial<Handoff> };

/** Records what the pages were rendered from (or, in a kept build, will be). */
export function handOver<K extends keyof Handoff>(name: K, value: Handoff[K]): void {
  const holder = globalThis as Holder;
  holder[SLOT] = { ...holder[SLOT], [name]: value };
}

/** What the pages were rendered from, when they have loaded it. */
export function handedOver<K extends keyof Handoff>(name: K): Handoff[K] | undefined {
  return (globalThis as Holder)[SLOT]?.[name];
}

/** What a render thread needs of the data the main thread's pages read. */
export interface BuildSnapshot {
  'site-content': SiteContent;
  'layout-data': LayoutData;
}

/** The main thread's layout and content, once its pages have read both; else null. */
export function buildSnapshot(): BuildSnapshot | null {
  const content = handedOver('site-content');
  const layout = handedOver('layout-data');
  return content === undefined || layout === undefined
    ? null
    : { 'site-content': content, 'layout-data': layout };
}

/** Takes a snapshot of the main thread's data as this thread's own (before any page renders). */
export function adoptSnapshot(snapshot: BuildSnapshot): void {
  handOver('site-content', snapshot['site-content']);
  handOver('layout-data', snapshot['layout-data']);
}
