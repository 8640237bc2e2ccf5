/**
 * The top bar's offer (`TopBar.astro`: a banner without a link of its own, "recevez 10 %"):
 * a link to the footer's newsletter form, which opens the newsletter panel it names
 * (`data-newsletter-offer`) instead when this script runs: the same form, where the shopper
 * is. A click with a modifier key, or on a page without the panel, follows the link.
 */
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const offer =
    event.target instanceof Element
      ? event.target.closest<HTMLElement>('[data-newsletter-offer]')
      : null;
  const panel = document.getElementById(offer?.dataset.newsletterOffer ?? '');
  if (offer === null || !panel?.hasAttribute('popover')) return;
  event.preventDefault();
  if (!panel.matches(':popover-open')) panel.showPopover();
});
