/**
 * The build-time catalogue: products, categories and brands read from the commerce service
 * once per build (catalogue-source.ts) and indexed once (by id, by category, by brand;
 * catalogue-index.ts, pure, also holds the reads pages share), shared by every pre-rendered
 * page. getStaticPaths and pages look products up here instead of scanning a list per page
 * (no N×M loop at 10,000 products). Build and `astro dev` only: the on-demand listing view
 * reads the release's listings written from it (listing-store.ts).
 */
import { isMainThread } from 'node:worker_threads';
import { bigcommerce, bigcommerceConnection } from '../config/config.ts';
import { handedCatalogueRead, startCatalogueRead } from './catalogue-prefetch.ts';
import { readCatalogue, type CatalogueRead } from './catalogue-source.ts';
import { handOver } from './handoff.ts';
import { indexCatalogue, type Catalogue } from './catalogue-index.ts';

export { bestSellers, type Catalogue, type CatalogueBrand } from './catalogue-index.ts';

async function load(
  early: { read: Promise<CatalogueRead>; generation: number } | undefined,
): Promise<Catalogue> {
  // The read astro.config.mjs started with the build (or a newer one a publish handed over),
  // else (astro dev, another connection, a failed early read) one now.
  const read = await (early?.read.catch((error: unknown) => {
    // Read again, handed over the same way: a build kept alive publishes edits from it (it
    // used to read privately, and every edit then took a full build).
    console.warn(
      `[catalogue] the read started with the build failed (${error instanceof Error ? error.message : String(error)}): reading again`,
    );
    return startCatalogueRead(bigcommerceConnection);
  }) ?? readCatalogue(bigcommerce()));
  const catalogue = indexCatalogue(read);
  if (!import.meta.env.DEV) {
    handOver('catalogue', catalogue);
    // Once per build: a render thread takes the main thread's read (parallel-prerender.ts).
    if (isMainThread) {
      console.info(
        `[catalogue] ${catalogue.products.length} products, ${catalogue.categories.filter((c) => c.shown).length} categories shown of ${catalogue.categories.length}, ${catalogue.brands.length} brands read in ${read.ms} ms${early ? ' (started with the build)' : ''}`,
      );
    }
  }
  return catalogue;
}

/** How long `astro dev` reuses the catalogue before reading it again (ms). */
const DEV_REUSE_MS = 5_000;

let catalogue: { value: Promise<Catalogue>; at: number; generation: number } | undefined;

/**
 * The indexed catalogue, loaded on first use and shared by every page of the build, until a
 * publish hands over a newer one (catalogue-prefetch.ts). In `astro dev` it is read again after
 * a few seconds, so a change upstream shows without a restart; a failed read is not kept.
 */
export function getCatalogue(): Promise<Catalogue> {
  const now = Date.now();
  const early = import.meta.env.DEV ? undefined : handedCatalogueRead(bigcommerceConnection);
  const generation = early?.generation ?? 0;
  if (
    catalogue &&
    (import.meta.env.DEV ? now - catalogue.at < DEV_REUSE_MS : catalogue.generation === generation)
  ) {
    return catalogue.value;
  }
  const value = load(early);
  const entry = { value, at: now, generation };
  catalogue = entry;
  value.catch(() => {
    if (catalogue === entry) catalogue = undefined;
  });
  return value;
}
