/**
 * The data a kept-alive build renders from, brought up to date one edit at a time. The build
 * started with the read astro.config.mjs began (catalogue-prefetch.ts); each commerce event
 * reads just what it names (one product by id, or the categories, or the brands: small reads,
 * whatever the catalogue's size) and patches a copy of the last read, which is then handed to
 * the pages under a new generation. Products keep the order of the build's own read (by id).
 * A content event reads the site's content again (a handful of reads) and hands it to the pages
 * (loaders/handoff.ts), and the navigations, which the pages do not take from here: when what
 * the menus and footer columns make of them differs, only a full build is right (every page's
 * shell, src/shop/publish/shell.ts); when they differ in nothing shown, the pages are right.
 */
import {
  createBigCommerceClient,
  getAllProducts,
  type BigCommerceClient,
} from '../../shop/connectors/bigcommerce/index.ts';
import {
  connectionFromEnv,
  handedCatalogueRead,
  replaceCatalogueRead,
} from '../../shop/loaders/catalogue-prefetch.ts';
import {
  readBrands,
  readCategories,
  screenProducts,
  type CatalogueRead,
} from '../../shop/loaders/catalogue-source.ts';
import { categoryPaths } from '../../lib/commerce/category.ts';
import type { Navigations, SiteContent } from '../../lib/content/types.ts';
import {
  createContentfulClient,
  getNavigations,
  getSiteContent,
  type ContentfulClient,
} from '../../shop/connectors/contentful/index.ts';
import { handedOver, handOver } from '../../shop/loaders/handoff.ts';
import type { Edit } from '../rebuild/publish-edits.ts';
import { readEnvironment } from '../../shop/config/environment.ts';

export type { Edit };

/** What the pages render from: the catalogue, and the content and menus of the layout. */
export interface PublishState {
  catalogue: CatalogueRead;
  content: SiteContent;
  navigations: Navigations;
}

/** Product ids per read (`id:in`), so a burst of edits never makes an overlong URL. */
const IDS_PER_READ = 50;

export interface PublishData {
  /** What the pages render from now. */
  current(): Promise<PublishState>;
  /**
   * Reads what `edits` name, hands the patched catalogue and content to the pages and returns
   * what they rendered from before and after.
   */
  apply(edits: readonly Edit[]): Promise<{ before: PublishState; after: PublishState }>;
}

/** The Content Delivery API as the build reads it (rules and defaults: the environment's table). */
function contentfulFromEnv(env: Readonly<Record<string, string | undefined>>): ContentfulClient {
  const settings = readEnvironment(
    [
      'CONTENTFUL_SPACE_ID',
      'CONTENTFUL_ACCESS_TOKEN',
      'CONTENTFUL_API_URL',
      'CONTENTFUL_ENVIRONMENT',
    ],
    env,
  );
  const spaceId = settings.CONTENTFUL_SPACE_ID;
  const accessToken = settings.CONTENTFUL_ACCESS_TOKEN;
  if (!spaceId || !accessToken) {
    throw new Error(
      'publishing a content edit needs CONTENTFUL_SPACE_ID and CONTENTFUL_ACCESS_TOKEN',
    );
  }
  return createContentfulClient({
    apiUrl: settings.CONTENTFUL_API_URL,
    spaceId,
    environment: settings.CONTENTFUL_ENVIRONMENT,
    accessToken,
  });
}

/** What the build handed over of its layout, or why a publish cannot compare with it. */
function handedLayout(): { content: SiteContent; navigations: Navigations } {
  const content = handedOver('site-content');
  const navigations = handedOver('navigations');
  if (content === undefined || navigations === undefined) {
    throw new Error('the build did not hand over the content its pages show');
  }
  return { content, navigations };
}

/** Patches `read` with the visible products read again for `ids` (absent: deleted or hidden). */
export function withProducts(
  read: CatalogueRead,
  ids: ReadonlySet<number>,
  fresh: CatalogueRead['products'],
): CatalogueRead {
  const products = read.products.filter((product) => !ids.has(product.id));
  for (const product of fresh) if (ids.has(product.id)) products.push(product);
  products.sort((a, b) => a.id - b.id);
  return { ...read, products };
}

export function createPublishData(env: Readonly<Record<string, string | undefined>>): PublishData {
  const connection = connectionFromEnv(env);
  if (connection === null) {
    throw new Error('publishing needs BIGCOMMERCE_STORE_HASH and BIGCOMMERCE_ACCESS_TOKEN');
  }
  const client: BigCommerceClient = createBigCommerceClient(connection);
  let content: ContentfulClient | null = null;
  const catalogue = async (): Promise<CatalogueRead> => {
    const handed = handedCatalogueRead(connection);
    if (handed === undefined) throw new Error('the build did not keep its catalogue read');
    return handed.read;
  };
  const current = async (): Promise<PublishState> => ({
    catalogue: await catalogue(),
    ...handedLayout(),
  });
  return {
    current,
    async apply(edits) {
      const before = await current();
      let after = before.catalogue;
      const productIds = new Set<number>();
      for (const edit of edits) if (edit.resource === 'product') productIds.add(edit.id);
      if (productIds.size > 0) {
        const ids = [...productIds];
        const fresh = [];
        for (let start = 0; start < ids.length; start += IDS_PER_READ) {
          const chunk = ids.slice(start, start + IDS_PER_READ);
          // A product the route table refuses is gone from the site, as a hidden one.
          fresh.push(
            ...screenProducts(await getAllProducts(client, { ids: chunk, isVisible: true })),
          );
        }
        after = withProducts(after, productIds, fresh);
      }
      if (edits.some((e) => e.resource === 'category')) {
        after = { ...after, categories: await readCategories(client) };
      }
      if (edits.some((e) => e.resource === 'brand')) {
        after = { ...after, brands: await readBrands(client) };
      }
      let layout = { content: before.content, navigations: before.navigations };
      if (edits.some((e) => e.resource === 'content')) {
        content ??= contentfulFromEnv(env);
        const categories = handedOver('layout-categories') ?? [];
        const paths = categoryPaths(categories);
        const [site, navigations] = await Promise.all([
          getSiteContent(content),
          getNavigations(content, { categoryPath: (id) => paths.get(id) ?? null }),
        ]);
        layout = { content: site, navigations };
      }
      if (after !== before.catalogue) replaceCatalogueRead(after);
      if (layout.content !== before.content) handOver('site-content', layout.content);
      return { before, after: { catalogue: after, ...layout } };
    },
  };
}
