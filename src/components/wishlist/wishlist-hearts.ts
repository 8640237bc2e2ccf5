/**
 * Runs every wishlist heart of the page (WishlistHeart.astro): shows them, keeps `aria-pressed`
 * in step with the wishlist store (spec §4: in the wishlist when product and variant both
 * match) and toggles on click. A heart of the product page (`data-variant-id="selected"`)
 * follows the variant chosen in the picker; with no such variant it is disabled.
 */
import { $productSelection } from '../../lib/stores/product.ts';
import { $wishlist, isInWishlist, toggleWishlist } from '../../lib/stores/wishlist.ts';

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

function render(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>(SELECTOR)) {
    const productId = Number(button.dataset.productId);
    const variantId = variantOf(button);
    button.hidden = false;
    button.disabled = variantId === null;
    button.setAttribute(
      'aria-pressed',
      String(variantId !== null && isInWishlist(productId, variantId)),
    );
  }
}

render();
$wishlist.listen(render);
$productSelection.listen(render);

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest(SELECTOR) : null;
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  const productId = idOf(button.dataset.productId);
  const variantId = variantOf(button);
  if (productId === null || variantId === null) return;
  // Shown at once; the store's reply (or its failure) sets it right.
  button.setAttribute('aria-pressed', String(!isInWishlist(productId, variantId)));
  void toggleWishlist(productId, variantId).then(render);
});
