/**
 * The shop's own inline scripts: the few that must run where they stand, before the first
 * paint (a module script would run after it and shift the layout). The Content-Security-Policy
 * allows exactly these texts by their hashes (`astro.config.mjs`, `src/shop/html/csp.ts`);
 * any other inline script, or a changed one without a new build, does not run.
 */
import { SHOP_MODE_COOKIE, SHOP_MODE_RESELLER } from '../../../lib/commerce/shop-mode.ts';

export const INLINE_SCRIPTS = {
  // spec §6 reseller mode: a page a cache kept from before the login (the server strips pages
  // itself, shop-mode.ts) hides what resellers do not see from the first paint.
  resellerMode: `if(document.cookie.split('; ').includes('${SHOP_MODE_COOKIE}=${SHOP_MODE_RESELLER}'))document.documentElement.setAttribute('data-reseller','')`,
  // Page transitions (global.css @view-transition): the browser skips a cross-document
  // transition it cannot run (back or forward, a page left before it is revealed, a hidden
  // tab), and the skipped transition's promises reject with an AbortError nobody awaited,
  // which Chromium logs as an uncaught error on every such navigation. Skipping is
  // expected: its rejections are handled here, on both pages (pageswap on the old one,
  // pagereveal, before the first paint, on the new one). The transitions themselves stay.
  quietTransitions:
    "for(const t of['pageswap','pagereveal'])addEventListener(t,e=>{const v=e.viewTransition;if(v)for(const p of[v.ready,v.finished,v.updateCallbackDone])p?.catch(()=>{})})",
  // Listing filters: folded on mobile before the first paint, open without JavaScript.
  foldFilters:
    "if(!matchMedia('(min-width: 64rem)').matches)document.currentScript?.closest('details')?.removeAttribute('open');",
  // Listing: the remembered grid/list view, applied before the products are painted.
  listingView:
    "try{if(localStorage.getItem('listing-view')==='list')document.getElementById('listing-view-list').checked=true}catch{}",
} as const;

export type InlineScriptName = keyof typeof INLINE_SCRIPTS;
