// @ts-check
import { fileURLToPath } from 'node:url';
import node from '@astrojs/node';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { devServer } from './src/lib/server/middleware/dev-server.ts';
import { serviceWorker } from './src/integrations/service-worker.ts';
import { buildFlags } from './src/integrations/build-flags.ts';
import { listingStore } from './src/integrations/listing-store.ts';
import { parallelPrerender } from './src/integrations/parallel-prerender.ts';
import { linkedVariantDirective } from './src/integrations/linked-variant.ts';
import { isSitemapPage } from './src/lib/commerce/routes.ts';
import { INLINE_SCRIPTS } from './src/components/layout/inline-scripts.ts';
import { CONTENTFUL_MEDIA_ORIGINS, cspConfig, parseCheckoutOrigins } from './src/lib/server/csp.ts';
import { CONTENTFUL_DELIVERY_URL } from './src/lib/server/contentful/endpoint.ts';
import { parseContainerId } from './src/lib/analytics/tag-manager.ts';
import { FEATURE_DEFAULTS, featuresFromEnv } from './src/lib/features.ts';
import {
  DEFAULT_REVIEWS_API_URL,
  DEFAULT_REVIEWS_WIDGET_URL,
} from './src/lib/server/reviews/sites.ts';
import {
  imageOrigins,
  imageRemotePatterns,
  parseImageDomains,
  sandboxImageOrigin,
} from './src/lib/server/image-hosts.ts';

// Remote image hosts the image proxy accepts (spec §7 "image proxy with allowed domains"):
// the commerce platform's CDN, the content platform's CDN (https), and the local sandbox's
// picture path on its own port only (image-hosts.ts). The CSP shows pictures from the same.
const imageDomains = parseImageDomains(process.env.IMAGE_DOMAINS);
const sandboxOrigin = sandboxImageOrigin(process.env.BIGCOMMERCE_API_URL);
// Audio and video of the content service: Contentful's asset hosts, or the sandbox's own.
const contentSandboxOrigin = sandboxImageOrigin(process.env.CONTENTFUL_API_URL);
const mediaOrigins = [
  ...CONTENTFUL_MEDIA_ORIGINS,
  ...(contentSandboxOrigin === null ? [] : [contentSandboxOrigin]),
];

const site = process.env.SITE_URL ?? 'http://localhost:4321';
// The feature flags as `astro:env` will read them (src/lib/features.ts), for this config.
const buildFeatures = featuresFromEnv(process.env);

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
          const prefetch = await import('./src/lib/server/loaders/catalogue-prefetch.ts');
          const connection = prefetch.connectionFromEnv(process.env);
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
      entrypoint: './src/lib/server/image-service.ts',
      config: {
        encoderWorker: fileURLToPath(
          new URL('./src/lib/server/image-encoder-worker.ts', import.meta.url),
        ),
      },
    },
    // `/_image`, the picture proxy of on-demand pages and `astro dev`: the shop's variants only
    // (src/lib/picture-variants.ts), raster sources only, bounded, kept on disk
    // (image-proxy.ts).
    endpoint: { route: '/_image', entrypoint: './src/lib/server/image-endpoint.ts' },
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
      checkoutOrigins: parseCheckoutOrigins(process.env.CHECKOUT_ORIGINS, sandboxOrigin),
      // The footer's reviews carousel (spec §1), only with the reviews flag on.
      frameOrigins: buildFeatures.reviews
        ? [new URL(process.env.REVIEWS_WIDGET_URL ?? DEFAULT_REVIEWS_WIDGET_URL).origin]
        : [],
      inlineScripts: Object.values(INLINE_SCRIPTS),
      // The tag-manager container (spec §7) and what its Google tags load, only when set.
      tagManager: parseContainerId(process.env.GTM_CONTAINER_ID) !== null,
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
          const scripts =
            /\/src\/components\/(cart\/card-add-to-cart|wishlist\/wishlist-hearts)\.ts$/;
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
    schema: {
      BIGCOMMERCE_API_URL: envField.string({
        context: 'server',
        access: 'public',
        url: true,
        default: 'https://api.bigcommerce.com',
      }),
      BIGCOMMERCE_STORE_HASH: envField.string({ context: 'server', access: 'secret' }),
      BIGCOMMERCE_ACCESS_TOKEN: envField.string({ context: 'server', access: 'secret' }),
      BIGCOMMERCE_CHANNEL_ID: envField.number({
        context: 'server',
        access: 'public',
        int: true,
        gt: 0,
        default: 1,
      }),
      STOREFRONTS: envField.string({ context: 'server', access: 'public', optional: true }),
      // Signs the customer session cookie and password-reset links (keys derived per purpose).
      SESSION_SECRET: envField.string({ context: 'server', access: 'secret', min: 32 }),
      // Shared state of several server copies (session revocation, login limits, reset links,
      // cart locks, render cache): Redis when set; unset, a SQLite file in STATE_DIR. Both are
      // read at run time (secret), so one build serves any deployment.
      REDIS_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      STATE_DIR: envField.string({ context: 'server', access: 'secret', optional: true }),
      // TRUSTED_PROXIES (load balancers whose X-Forwarded-* are believed) is read at run time by
      // its one reader, trustedProxiesFromEnv (src/lib/server/client.ts), for the storefront
      // server and the middleware alike.
      // BigCommerce API account of the Customer Login API (hosted checkout as the customer).
      BIGCOMMERCE_CLIENT_ID: envField.string({ context: 'server', access: 'secret' }),
      BIGCOMMERCE_CLIENT_SECRET: envField.string({ context: 'server', access: 'secret' }),
      // Contentful Content Delivery API (spec §7 content service): navigations, sleep content,
      // content pages and technology blocks. The sandbox serves it at {sandbox}/contentful.
      CONTENTFUL_API_URL: envField.string({
        context: 'server',
        access: 'public',
        url: true,
        default: CONTENTFUL_DELIVERY_URL,
      }),
      CONTENTFUL_SPACE_ID: envField.string({ context: 'server', access: 'public' }),
      CONTENTFUL_ENVIRONMENT: envField.string({
        context: 'server',
        access: 'public',
        default: 'master',
      }),
      CONTENTFUL_ACCESS_TOKEN: envField.string({ context: 'server', access: 'secret' }),
      BREVO_API_URL: envField.string({
        context: 'server',
        access: 'public',
        url: true,
        default: 'https://api.brevo.com/v3',
      }),
      BREVO_API_KEY: envField.string({ context: 'server', access: 'secret' }),
      MAIL_SENDER_EMAIL: envField.string({
        context: 'server',
        access: 'public',
        default: 'contact@literie-exemple.fr',
      }),
      MAIL_SENDER_NAME: envField.string({
        context: 'server',
        access: 'public',
        default: 'Literie',
      }),
      // spec §9: the cart cookie's lifetime comes from configuration (seconds; 30 days).
      CART_COOKIE_MAX_AGE: envField.number({
        context: 'client',
        access: 'public',
        int: true,
        gt: 0,
        default: 2_592_000,
      }),
      SHOP_LOCALE: envField.string({ context: 'server', access: 'public', default: 'fr' }),
      SHOP_CURRENCY: envField.string({ context: 'server', access: 'public', default: 'EUR' }),
      SHOP_COUNTRY: envField.string({ context: 'server', access: 'public', default: 'FR' }),
      // Feature flags (src/lib/features.ts: names, defaults, rules; read by src/lib/env-client.ts).
      FEATURE_TRANSACTIONAL: envField.boolean({
        context: 'client',
        access: 'public',
        default: FEATURE_DEFAULTS.transactional,
      }),
      FEATURE_REVIEWS: envField.boolean({
        context: 'client',
        access: 'public',
        default: FEATURE_DEFAULTS.reviews,
      }),
      FEATURE_RESELLER_AREA: envField.boolean({
        context: 'client',
        access: 'public',
        default: FEATURE_DEFAULTS.resellerArea,
      }),
      COMPANY_ADDRESS: envField.string({
        context: 'client',
        access: 'public',
        default: '12 rue des Dormeurs, 69003 Lyon',
      }),
      COMPANY_PHONE: envField.string({
        context: 'client',
        access: 'public',
        default: '04 78 00 00 00',
      }),
      COMPANY_EMAIL: envField.string({
        context: 'client',
        access: 'public',
        default: 'contact@literie-exemple.fr',
      }),
      // spec §1: the footer's three social links, sample values as for the company address.
      SOCIAL_LINKEDIN_URL: envField.string({
        context: 'client',
        access: 'public',
        default: 'https://www.linkedin.com/company/literie-exemple',
      }),
      SOCIAL_INSTAGRAM_URL: envField.string({
        context: 'client',
        access: 'public',
        default: 'https://www.instagram.com/literie.exemple',
      }),
      SOCIAL_FACEBOOK_URL: envField.string({
        context: 'client',
        access: 'public',
        default: 'https://www.facebook.com/literie.exemple',
      }),
      REASSURANCE: envField.string({ context: 'client', access: 'public', optional: true }),
      // spec §3: which of the group's brand sites the shop shows (src/lib/server/reviews/sites.ts).
      REVIEWS_SITE: envField.string({ context: 'server', access: 'public', optional: true }),
      REVIEWS_API_URL: envField.string({
        context: 'server',
        access: 'public',
        url: true,
        default: DEFAULT_REVIEWS_API_URL,
      }),
      REVIEWS_WIDGET_URL: envField.string({
        context: 'server',
        access: 'public',
        url: true,
        default: DEFAULT_REVIEWS_WIDGET_URL,
      }),
      REVIEWS_PROVIDER_URL: envField.string({
        context: 'client',
        access: 'public',
        optional: true,
      }),
      SUPPORT_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      // spec §7: the tag-manager container (`GTM-XXXXXXX`); unset, no container script at all.
      // tag-manager.ts checks the whole form (the CSP above fails the build on a bad one).
      GTM_CONTAINER_ID: envField.string({
        context: 'client',
        access: 'public',
        optional: true,
        startsWith: 'GTM-',
        max: 16,
      }),
      // spec §9 support site links; default: SUPPORT_URL and {SUPPORT_URL}/requests/new.
      SUPPORT_FAQ_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      SUPPORT_REQUEST_URL: envField.string({
        context: 'client',
        access: 'public',
        optional: true,
      }),
      // spec §9 "Default log verbosity: error" (src/lib/server/log.ts). Read at run time
      // (secret: not inlined in the build), as scripts/serve.ts reads it.
      LOG_LEVEL: envField.enum({
        context: 'server',
        access: 'secret',
        values: ['error', 'warn', 'info', 'debug'],
        default: 'error',
      }),
    },
  },
});
