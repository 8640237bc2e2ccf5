/**
 * The shop's own inline scripts: the few that must run where they stand, before the first
 * paint (a module script would run after it and shift the layout). The Content-Security-Policy
 * allows exactly these texts by their hashes (`astro.config.mjs`, `src/lib/server/csp.ts`);
 * any other inline script, or a changed one without a new build, does not run.
 */
export const INLINE_SCRIPTS = {
  // Listing filters: folded on mobile before the first paint, open without JavaScript.
  foldFilters:
    "if(!matchMedia('(min-width: 64rem)').matches)document.currentScript?.closest('details')?.removeAttribute('open');",
  // Listing: the remembered grid/list view, applied before the products are painted.
  listingView:
    "try{if(localStorage.getItem('listing-view')==='list')document.getElementById('listing-view-list').checked=true}catch{}",
} as const;

export type InlineScriptName = keyof typeof INLINE_SCRIPTS;
