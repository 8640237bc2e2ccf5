/**
 * Writes the release's listings (`server/listings.sqlite`, loaders/listing-store.ts) once the
 * pages are built, from the catalogue they were rendered from (handed over by catalogue.ts):
 * the on-demand listing view then renders from the same data as the pre-rendered page 1,
 * without reading a whole category live. Beside them, the pictures the build encoded, so that
 * on-demand pages show the same files (image-service.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { handedOver } from '../../shop/loaders/handoff.ts';
import {
  LISTING_STORE_FILE,
  writeListingStore,
  type PictureEntry,
} from '../../shop/loaders/listing-store.ts';
import { astroAsset, type AstroAsset } from '../pictures/astro-asset.ts';
import { isRemotePicture, pictureUrl, transformKey } from '../pictures/picture-key.ts';

/**
 * The remote pictures the build encoded into the release, by variant, with the URL its pages
 * show for each (`pictureUrl`): Astro's list (`globalThis.astroAsset.staticImages`).
 */
export function builtPictures(images: AstroAsset['staticImages']): PictureEntry[] {
  const entries: PictureEntry[] = [];
  for (const { transforms } of images?.values() ?? []) {
    for (const { finalPath, transform } of transforms.values()) {
      const { src } = transform;
      if (isRemotePicture(src)) entries.push([transformKey(src, transform), pictureUrl(finalPath)]);
    }
  }
  return entries;
}

export function listingStore(): AstroIntegration {
  let serverDir = '';
  // The picture table only where the pages' URLs are the files' paths (no base, no CDN prefix).
  let pictureUrlsArePaths = true;
  return {
    name: 'listing-store',
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
        pictureUrlsArePaths = config.base === '/' && config.build.assetsPrefix === undefined;
      },
      'astro:build:done': async ({ logger }) => {
        const catalogue = handedOver('catalogue');
        if (catalogue === undefined) {
          // No page read the catalogue: listing views read it live.
          logger.warn('no page read the catalogue: listing views will read it live');
          return;
        }
        const started = performance.now();
        const pictures = pictureUrlsArePaths ? builtPictures(astroAsset().staticImages) : [];
        await writeListingStore(path.join(serverDir, LISTING_STORE_FILE), catalogue, pictures);
        // One line, like the catalogue's (printed whatever Astro's log level).
        console.info(
          `[listings] ${String(catalogue.products.length)} products and ${String(pictures.length)} pictures written in ${String(Math.round(performance.now() - started))} ms`,
        );
      },
    },
  };
}
