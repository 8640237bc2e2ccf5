/**
 * The catalogue a kept-alive build renders from, brought up to date one edit at a time. The build
 * started with the read astro.config.mjs began (catalogue-prefetch.ts); each commerce event
 * reads just what it names (one product by id, or the categories, or the brands: small reads,
 * whatever the catalogue's size) and patches a copy of the last read, which is then handed to
 * the pages under a new generation. Products keep the order of the build's own read (by id).
 */
import {
  createBigCommerceClient,
  getAllProducts,
  type BigCommerceClient,
} from '../../src/lib/server/bigcommerce/index.ts';
import {
  connectionFromEnv,
  handedCatalogueRead,
  replaceCatalogueRead,
} from '../../src/lib/server/loaders/catalogue-prefetch.ts';
import {
  readBrands,
  readCategories,
  type CatalogueRead,
} from '../../src/lib/server/loaders/catalogue-source.ts';
import type { CommerceEdit } from '../../src/server/rebuild/publish-edits.ts';

export type { CommerceEdit };

/** Product ids per read (`id:in`), so a burst of edits never makes an overlong URL. */
const IDS_PER_READ = 50;

export interface PublishData {
  /** The catalogue the pages render from now. */
  current(): Promise<CatalogueRead>;
  /**
   * Reads what `edits` name, hands the patched catalogue to the pages and returns the
   * catalogue before and after.
   */
  apply(edits: readonly CommerceEdit[]): Promise<{ before: CatalogueRead; after: CatalogueRead }>;
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
  const current = async (): Promise<CatalogueRead> => {
    const handed = handedCatalogueRead(connection);
    if (handed === undefined) throw new Error('the build did not keep its catalogue read');
    return handed.read;
  };
  return {
    current,
    async apply(edits) {
      const before = await current();
      let after = before;
      const productIds = new Set(edits.filter((e) => e.resource === 'product').map((e) => e.id));
      if (productIds.size > 0) {
        const ids = [...productIds];
        const fresh = [];
        for (let start = 0; start < ids.length; start += IDS_PER_READ) {
          const chunk = ids.slice(start, start + IDS_PER_READ);
          fresh.push(...(await getAllProducts(client, { ids: chunk, isVisible: true })));
        }
        after = withProducts(after, productIds, fresh);
      }
      if (edits.some((e) => e.resource === 'category')) {
        after = { ...after, categories: await readCategories(client) };
      }
      if (edits.some((e) => e.resource === 'brand')) {
        after = { ...after, brands: await readBrands(client) };
      }
      if (after !== before) replaceCatalogueRead(after);
      return { before, after };
    },
  };
}
