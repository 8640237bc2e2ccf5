/**
 * The `contentful` service of the API middleware (spec §7 "Content service"): `getTags`,
 * `getNavigation(identifier)` (one of the three named navigations) and
 * `getTechnologies(names?)`, each with the zod tuple of its arguments, all cacheable reads.
 * A navigation's category pages take their paths from the visible category tree of the
 * request's storefront, so its replies are cached per storefront channel.
 */
import { z } from 'zod';
import { hiddenCategoryIds, HIDE_CATEGORY_KEY, visibleTree } from '../../lib/commerce/category.ts';
import type { CategoryNode } from '../../lib/commerce/types.ts';
import { categoryPathLookup } from '../../lib/content/navigation.ts';
import {
  getCategoriesBatchMetafields,
  getCategoryTree,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import {
  getNavigation,
  getTags,
  getTechnologies,
  NavigationIdentifierSchema,
  TechnologyNamesSchema,
  type ContentfulClient,
} from '../connectors/contentful/index.ts';
import { bindService, defineMethod, type ApiMethod, type BoundService } from './handle.ts';

export interface ContentfulContext {
  client: ContentfulClient;
  /** The visible category tree of the request's storefront (read on demand). */
  categoryTree: () => Promise<CategoryNode[]>;
}

// The same for every shopper of a storefront: cached briefly (handle.ts).
const contentRead = { cacheable: true };

export const contentfulMethods = {
  getTags: defineMethod(
    z.tuple([]),
    ({ client }: ContentfulContext) => getTags(client),
    contentRead,
  ),
  getNavigation: defineMethod(
    z.tuple([NavigationIdentifierSchema.describe('identifier')]),
    async ({ client, categoryTree }: ContentfulContext, [identifier]) =>
      getNavigation(client, identifier, { categoryPath: categoryPathLookup(await categoryTree()) }),
    contentRead,
  ),
  getTechnologies: defineMethod(
    z.tuple([TechnologyNamesSchema.optional().describe('names')]),
    ({ client }: ContentfulContext, [names]) => getTechnologies(client, names),
    contentRead,
  ),
} satisfies Record<string, ApiMethod<ContentfulContext>>;

/** Shown categories only (visible, not `hide-category`): the others' navigation entries are dropped. */
export async function visibleCategoryTree(client: BigCommerceClient): Promise<CategoryNode[]> {
  const [tree, metafields] = await Promise.all([
    getCategoryTree(client),
    getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
  ]);
  return visibleTree(tree, hiddenCategoryIds(metafields));
}

export interface ContentfulServiceOptions {
  /** The Contentful client of a request. */
  client: (request: Request) => ContentfulClient;
  /** The BigCommerce client of the request's storefront (its channel's category tree). */
  commerce: (request: Request) => BigCommerceClient;
}

/** The service, bound to the clients of a request. */
export function contentfulService(options: ContentfulServiceOptions): BoundService {
  return bindService<ContentfulContext>({
    methods: contentfulMethods,
    // Navigations differ by storefront channel (its category tree); the rest does not.
    cacheScope: ({ request }) => String(options.commerce(request).channelId ?? ''),
    context: ({ request }) => ({
      client: options.client(request),
      categoryTree: () => visibleCategoryTree(options.commerce(request)),
    }),
  });
}
