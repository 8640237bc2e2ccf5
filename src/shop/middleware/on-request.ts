/**
 * Astro middleware: the shop's concerns, in the order each request meets
 * them. Every handler lives in `src/shop/middleware/` with its rules in `src/lib/`;
 * this file only wires them to the config. On-demand requests only: pre-rendered pages are
 * files, except a cart link (`?id&token`), which the server hands to this sequence.
 */
import { sequence } from 'astro/middleware';
import { explainCartLink, resolveCartRedirect } from '../carts/cart-redirect.ts';
import {
  accountServices,
  bigcommerce,
  bigcommerceForHost,
  cartCookieMaxAge,
  features,
  sessions,
  storefrontHosts,
  trustedProxies,
} from '../config/config.ts';
import { getProductById } from '../connectors/bigcommerce/index.ts';
import { ReplyCookies } from '../auth/cookies.ts';
import {
  createWithBudget,
  createWithCartRedirect,
  createWithClient,
  createWithFeatures,
  createWithGuards,
  createWithListingView,
  createWithProductPath,
  createWithRedirects,
  createWithReseller,
  createWithShopMode,
  loadRedirectList,
  withCanonicalPath,
} from './index.ts';
import {
  assembledListingView,
  readListingView,
} from '../view-models/catalogue/listing-view-loader.ts';
import { resellerVisitor } from '../carts/reseller.ts';
import { requestHost } from '../config/storefronts.ts';

const customerOf = async (request: Request) => (await sessions().read(request)).customerId;
const visitorOf = async (request: Request) =>
  resellerVisitor(bigcommerceForHost(requestHost(request)), await customerOf(request));

export const onRequest = sequence(
  // 1. The request's upstream time budget: every call after it, and the page's, share it.
  createWithBudget(),
  // 2. Who asks (behind TRUSTED_PROXIES): address, scheme, public origin; cross-site posts 403.
  createWithClient({ trustedProxies }),
  // 3. One spelling per page, before any guard: a trailing slash (spec §2), `.html`, `//`, `..`,
  //    escaped letters answer 301 to the canonical path (a respelling must not pass the guards).
  withCanonicalPath,
  // 4. spec §1, §6: the pages of a feature switched off answer the not-found page, 404.
  createWithFeatures(features),
  // 5. spec §2 guards (login-required, cart-authenticated), trusting the signed session.
  createWithGuards({ isLoggedIn: async (request) => (await customerOf(request)) !== null }),
  // 6. spec §2 reseller area: visitors to its login, non-resellers to the main shop.
  createWithReseller({ visitor: visitorOf }),
  // 7. spec §2 redirect-to-cart (`?id&token`), on the channel of the request's storefront.
  //    Only a token the shop minted opens a cart; the opener's browser then holds its checkout.
  //    A link that opens nothing renders `/vue/lien-panier` saying why (never a silent dead end).
  createWithCartRedirect({
    // spec §1: with the transactional flag off a cart link does nothing (no cookie, no 302).
    enabled: features.transactional,
    resolve: (request, query) =>
      resolveCartRedirect(
        bigcommerceForHost(requestHost(request)),
        accountServices().cartLinkKey,
        query,
      ),
    cookieMaxAge: cartCookieMaxAge,
    adopt: async (request, cartId, secure) => {
      const cookies = new ReplyCookies({ secure });
      await accountServices().checkouts.handOver(request, cookies, cartId);
      return cookies.headers();
    },
    // A reseller's sent cart: opened (the reseller area lists its state).
    opened: (cartId) => accountServices().sentCarts.advance(cartId, { kind: 'opened' }),
    // A link that opens nothing says why and who to ask (`/vue/lien-panier`).
    explain: (request, query) =>
      explainCartLink(
        bigcommerceForHost(requestHost(request)),
        accountServices().cartLinkKey,
        query,
        (cartId) => accountServices().sentCarts.get(cartId),
      ),
  }),
  // 8. spec §2 storefront redirects (the BigCommerce list, loaded once).
  createWithRedirects({ load: () => loadRedirectList(bigcommerce(), storefrontHosts) }),
  // 9. A product path with an outdated slug: 301 to `/p/{id}/{slug}`.
  createWithProductPath({ lookup: (id) => getProductById(bigcommerce(), id) }),
  // 10. spec §1, §6 reseller mode of the whole shop: a reseller's on-demand page in the
  // reseller layout, private (the server strips pre-rendered pages itself).
  createWithShopMode({ enabled: features.resellerArea, visitor: visitorOf }),
  // 11. A shopper's listing view put together from its pre-rendered page 1, without a render
  // (no render); the page renders the same read (`locals.listingView`) when it cannot be.
  createWithListingView({
    assemble: async (context) => {
      const site = context.site ?? context.url;
      const view = await readListingView(
        context.params.slug ?? '',
        context.url,
        context.request.headers.get('host'),
        site,
      );
      context.locals.listingView = view;
      return assembledListingView(view, site);
    },
  }),
);
