/** What the middleware hands pages and endpoints (`Astro.locals`, `context.locals`). */
declare namespace App {
  interface Locals {
    /**
     * The client as the shop sees it behind its trusted proxies: address, scheme, public
     * origin (`src/shop/middleware/with-client.ts`).
     */
    clientInfo: import('./shop/auth/client.ts').ClientInfo;
    /**
     * The page is rendered for a logged-in reseller (spec §6 reseller mode of the whole shop,
     * `with-shop-mode.ts`); unset on pre-rendered pages.
     */
    isReseller?: boolean;
    /**
     * The listing view this request asks for, read by the middleware that tried to assemble
     * it (`with-listing-view.ts`): the page renders it without reading it again.
     */
    listingView?: import('./shop/view-models/catalogue/listing-view-loader.ts').ListingView;
    /**
     * Why the request's cart link opened nothing (`with-cart-redirect.ts`): the cart-link route
     * `/vue/lien-panier` says it.
     */
    cartLinkRefusal?: import('./shop/carts/cart-redirect.ts').CartLinkRefusal;
  }
}
