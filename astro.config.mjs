// @ts-check
import { fileURLToPath } from 'node:url';
import node from '@astrojs/node';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { devServer } from './src/shop/middleware/dev-server.ts';
import { serviceWorker } from './src/integrations/service-worker.ts';
import { buildFlags } from './src/integrations/build-flags.ts';
import { listingStore } from './src/server/render-threads/listing-store.ts';
import { parallelPrerender } from './src/server/render-threads/parallel-prerender.ts';
import { linkedVariantDirective } from './src/integrations/linked-variant.ts';
import { isSitemapPage } from './src/lib/commerce/routes.ts';
import { INLINE_SCRIPTS } from './src/shop/view-models/layout/inline-scripts.ts';
import { CONTENTFUL_MEDIA_ORIGINS, cspConfig, parseCheckoutOrigins } from './src/shop/html/csp.ts';
import { parseContainerId } from './src/lib/analytics/tag-manager.ts';
import { featuresFromEnv, readEnvironment } from './src/shop/config/environment.ts';
import { astroEnvSchema } from './src/shop/config/astro-env.ts';
import {
  imageOrigins,
  imageRemotePatterns,
  parseImageDomains,
  sandboxImageOrigin,
} from './src/server/pictures/image-hosts.ts';

// The build's settings, parsed by the shop's one table of the environment (same rules and
// defaults as `astro:env`, whose schema below is generated from it).
const settings = readEnvironment([
  'IMAGE_DOMAINS',
  'BIGCOMMERCE_API_URL',
  'CONTENTFUL_API_URL',
  'SITE_URL',
  'CHECKOUT_ORIGINS',
  'REVIEWS_WIDGET_URL',
  'GTM_CONTAINER_ID',
]);

// Remote image hosts the image proxy accepts (spec §7 "image proxy with allowed domains"):
// the commerce platform's CDN, the content platform's CDN (https), and the local sandbox's
// picture path on its own port only (image-hosts.ts). The CSP shows pictures from the same.
const imageDomains = parseImageDomains(settings.IMAGE_DOMAINS);
const sandboxOrigin = sandboxImageOrigin(settings.BIGCOMMERCE_API_URL);
// Audio and video of the content service: Contentful's asset hosts, or the sandbox's own.
const contentSandboxOrigin = sandboxImageOrigin(settings.CONTENTFUL_API_URL);
const mediaOrigins = [
  ...CONTENTFUL_MEDIA_ORIGINS,
  ...(contentSandboxOrigin === null ? [] : [contentSandboxOrigin]),
];

const site = settings.SITE_URL;
// The feature flags as `astro:env` will read them (src/lib/features.ts), for this config.
const buildFeatures = featuresFromEnv();

export default defineConfig({
  site,
  output: 'static',
  // 'ignore': the middleware answers the spec's trailing-slash 301 (dev and production alike).
  trailingSlash: 'ignore',
  // concurrency: pages rendered at once; 4 overlaps one page's file write with the next
  // pages' rendering (bench:build, 10,000 products: about 10 s less than 1, none more at 8).
  // With render threads, parallelPrerender raises it to keep them fed.
  build: { format: 'file', inlineStylesheets: 'auto', concurrency: 4 },
  // Pages are rendered whole, not streamed: the storefront server buffers every reply below
  // 8 MB anyway (to compress it, and to keep it in the render cache: src/server/on-demand.ts),
  // and Astro's stream encoded the page piece by piece at each pause of the render (a fresh
  // listing view: 6.3 -> 5.6 ms of main-thread CPU).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [
    // The flags the storefront server needs (cart links do nothing with the transactional
    // flag off).
    buildFlags({ transactional: buildFeatures.transactional }),
    // The release's listings, for the on-demand listing view (listing-store.ts).
    listingStore(),
    // Pages rendered on a second core too (BUILD_RENDER_THREADS; parallel-prerender.ts).
    parallelPrerender(),
    // The product page's picker hydrates at once on a link naming a variant, else when seen.
    linkedVariantDirective(),
    {
      // Reads the catalogue while Vite bundles (catalogue-prefetch.ts): the pages take it.
      name: 'catalogue-prefetch',
      hooks: {
        'astro:build:start': async () => {
          const prefetch = await import('./src/shop/loaders/catalogue-prefetch.ts');
          const connection = prefetch.connectionFromEnv();
          if (connection !== null) prefetch.startCatalogueRead(connection);
        },
      },
    },
    react(),
    // `/sw.js` (spec §7): the service worker, written once the client files exist.
    serviceWorker(),
    sitemap({
      filter: isSitemapPage,
      // The listings' pages 2 to N, indexed under their own canonical (listing-seo.ts).
      customSitemaps: [new URL('/sitemap-listings.xml', site).href],
    }),
  ],
  i18n: {
    locales: ['fr'],
    defaultLocale: 'fr',
    routing: { prefixDefaultLocale: false },
  },
  image: {
    // Astro's sharp service, encoding a static build's pictures beside page rendering
    // (image-service.ts), in a process started from its file (the service itself runs bundled,
    // away from its sources, so its file is named here).
    service: {
      entrypoint: './src/server/pictures/image-service.ts',
      config: {
        encoderWorker: fileURLToPath(
          new URL('./src/server/pictures/image-encoder-worker.ts', import.meta.url),
        ),
      },
    },
    // `/_image`, the picture proxy of on-demand pages and `astro dev`: the shop's variants only
    // (src/lib/picture-variants.ts), raster sources only, bounded, kept on disk
    // (image-proxy.ts).
    endpoint: { route: '/_image', entrypoint: './src/server/pictures/image-endpoint.ts' },
    remotePatterns: imageRemotePatterns(imageDomains, sandboxOrigin),
    // No image of the shop uses Astro's responsive layouts (`data-astro-image`): their 1.6 KB
    // stylesheet was inlined in every page, and hashed for the CSP at every on-demand render.
    responsiveStyles: false,
  },
  // Content-Security-Policy of every page (csp.ts): scripts by hash only, pictures from the
  // image hosts, forms to the shop and the hosted checkout.
  security: {
    // The client middleware (with-client.ts) refuses cross-site unsafe requests to on-demand
    // pages against the public origin (ClientInfo); Astro's own check compares `Origin` with
    // the request URL, which says http behind a TLS proxy, and would refuse the shop's forms.
    checkOrigin: false,
    csp: cspConfig({
      imageOrigins: imageOrigins(imageDomains, sandboxOrigin),
      mediaOrigins,
      checkoutOrigins: parseCheckoutOrigins(settings.CHECKOUT_ORIGINS, sandboxOrigin),
      // The footer's reviews carousel (spec §1), only with the reviews flag on.
      frameOrigins: buildFeatures.reviews ? [new URL(settings.REVIEWS_WIDGET_URL).origin] : [],
      inlineScripts: Object.values(INLINE_SCRIPTS),
      // The tag-manager container (spec §7) and what its Google tags load, only when set.
      tagManager: parseContainerId(settings.GTM_CONTAINER_ID) !== null,
    }),
  },
  // No prefetch script: no link asks for one (`data-astro-prefetch`), and the script went over
  // every link of every page and watched the whole document for new ones.
  prefetch: false,
  // No Markdown page; Shiki's highlighting would need inline styles the CSP refuses.
  markdown: { syntaxHighlight: false },
  vite: {
    plugins: [
      tailwindcss(),
      devServer(),
      {
        // The scripts of the product cards and wishlist hearts (on every catalogue page) and
        // the stores and rules they import, as one chunk of the browser build instead of some
        // twenty small ones, each compressed on its own: product pages 100.3 → 95.0 KB of JS
        // gzipped, home 25.9 → 22.5 KB (`npm test -- --only=build,size`). What a page fetches
        // later (the analytics store, the consent banner, the shell) keeps its own chunks.
        name: 'card-scripts-chunk',
        configEnvironment(name) {
          if (name !== 'client') return undefined;
          const scripts = /\/src\/browser\/(cart\/card-add-to-cart|wishlist\/wishlist-hearts)\.ts$/;
          return {
            build: {
              rolldownOptions: {
                output: { codeSplitting: { groups: [{ name: 'card-scripts', test: scripts }] } },
              },
            },
          };
        },
      },
    ],
    // Build outputs and sandbox data are not sources: keep the dev watcher off them.
    server: { watch: { ignored: ['**/dist-test/**', '**/.bench/**', '**/.sandbox/**'] } },
  },
  env: {
    validateSecrets: true,
    // Generated from the one table of the environment (src/shop/config/environment.ts): the
    // variables `astro:env` serves, with their checks and defaults. Where each is read and
    // what it means: src/shop/config/README.md.
    schema: astroEnvSchema(),
  },
});
