/**
 * Runs every wishlist heart of the page (WishlistHeart.astro): shows them, keeps `aria-pressed`
 * and the label ("Mettre … en favori" / "Retirer … des favoris") in step with the wishlist store (spec §4: in the wishlist when product and variant both
 * match) and toggles on click. A heart of the product page (`data-variant-id="selected"`)
 * follows the variant chosen in the picker; with no such variant it is disabled. An add the
 * wishlist took pushes add_to_wishlist (GA4) of the heart's item: `heartItem`. A toggle that
 * got no reply offline notifies the offline message (the shopper learns why).
 */
import type { AnalyticsItem } from '../../lib/analytics/datalayer.ts';
import { parsePageItem } from '../../lib/analytics/page-json.ts';
import { parseCardButton } from '../../lib/commerce/card-button.ts';
import { heartView } from '../../lib/commerce/wishlist.ts';
import { track } from '../../lib/stores/track.ts';
import { $chosenItem } from '../../lib/stores/chosen-item.ts';
import { $productSelection } from '../../lib/stores/product.ts';
import { $shownCards } from '../../lib/stores/shown-cards.ts';
import {
  $wishlist,
  $wishlistErrors,
  isInWishlist,
  toggleWishlist,
} from '../../lib/stores/wishlist.ts';
import { OFFLINE_MESSAGE } from '../../lib/api/client.ts';
import { pageMessages, PAGE_MESSAGES_ID } from '../../lib/i18n/translate.ts';
import { notify } from '../../lib/stores/notifications.ts';
import { cardListItem } from '../catalogue/card-list-item.ts';

const SELECTOR = 'button[data-wishlist-heart]';

const idOf = (raw: string | undefined): number | null => {
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

function variantOf(button: HTMLButtonElement): number | null {
  if (button.dataset.variantId !== 'selected') return idOf(button.dataset.variantId);
  const selection = $productSelection.get();
  return selection?.productId === idOf(button.dataset.productId)
    ? selection.variantId
    : idOf(button.dataset.defaultVariantId);
}

/** `aria-pressed` and the label of the state (the label follows the state). */
function show(button: HTMLButtonElement, inWishlist: boolean): void {
  const view = heartView(
    inWishlist,
    { add: button.dataset.labelAdd, remove: button.dataset.labelRemove },
    button.getAttribute('aria-label') ?? '',
  );
  button.setAttribute('aria-pressed', view.pressed);
  if (view.label !== '') button.setAttribute('aria-label', view.label);
}

function render(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>(SELECTOR)) {
    const productId = Number(button.dataset.productId);
    const variantId = variantOf(button);
    button.hidden = false;
    button.disabled = variantId === null;
    show(button, variantId !== null && isInWishlist(productId, variantId));
  }
}

render();
$wishlist.listen(render);
$productSelection.listen(render);
// Cards a listing brought in place (listing-filters.ts): their hearts are hidden until shown.
$shownCards.listen(render);

/**
 * The GA4 item of what a heart adds: on the product page, the chosen variant's (the picker's
 * `$chosenItem`, else the page's item of the default variant); on a card, the card's list item
 * priced and labelled as the variant its add-to-cart button adds (the heart's too). Null when
 * the page does not say (no event rather than a wrong one).
 */
function heartItem(
  button: HTMLButtonElement,
  productId: number,
  variantId: number,
): AnalyticsItem | null {
  if (button.dataset.variantId === 'selected') {
    const chosen = $chosenItem.get();
    if (chosen?.productId === productId && chosen.variantId === variantId) return chosen.item;
    if (idOf(button.dataset.defaultVariantId) !== variantId) return null;
    return parsePageItem(document.querySelector('script[data-view-item]')?.textContent);
  }
  const card = button.closest('[data-card]');
  if (card === null) return null;
  const title = card.querySelector(':is(h2, h3)')?.textContent;
  const adds = card.querySelector<HTMLElement>('button[data-add-to-cart]')?.dataset.addToCart;
  const data = parseCardButton(adds, title);
  if (data?.variantId !== variantId) return null;
  const listed = cardListItem(card, productId);
  return listed === null ? data.item : { ...listed, ...data.item };
}

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest(SELECTOR) : null;
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  const productId = idOf(button.dataset.productId);
  const variantId = variantOf(button);
  if (productId === null || variantId === null) return;
  // Shown at once; the store's reply (or its failure) sets it right.
  const adding = !isInWishlist(productId, variantId);
  show(button, adding);
  void toggleWishlist(productId, variantId).then((done) => {
    render();
    // A customer's heart that got no reply offline says so (the page's messages hold the text).
    const failure = done ? null : $wishlistErrors.get()[adding ? 'add' : 'remove'];
    const offline = pageMessages(PAGE_MESSAGES_ID)[OFFLINE_MESSAGE];
    if (failure === OFFLINE_MESSAGE && offline !== undefined)
      notify({ message: offline, type: 'danger' });
    const item = done && adding ? heartItem(button, productId, variantId) : null;
    if (item !== null) track('trackAddToWishlist', item);
  });
});
