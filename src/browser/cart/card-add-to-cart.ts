/**
 * Runs every product card's add-to-cart button of the page (`CardAddToCart.astro`), by one
 * click listener on the document: adds the card's variant (spec §2, §4), shows "Ajout en
 * cours…" then "Ajouté ✓" for 1 s (spec §9), pushes add_to_cart (the variant added at its
 * price, with the card's list, place, brand and category: `cardListItem`), notifies "Added to cart"
 * with a link to the sidebar, and keeps the buttons disabled while the cart loads. Buttons
 * that a later script adds to the page are handled too (the listener is delegated).
 */
import {
  cardButtonMessages,
  cardButtonView,
  parseCardButton,
  type CardButtonData,
  type CardButtonMessages,
  type CardButtonPhase,
} from '../../lib/commerce/card-button.ts';
import { pageMessages, PAGE_MESSAGES_ID } from '../../lib/i18n/translate.ts';
import { ADD_TO_CART_FEEDBACK_MS } from '../../lib/commerce/cart.ts';
import { addToCartAndNotify } from '../../lib/stores/add-to-cart.ts';
import { cardListItem } from '../catalogue/card-list-item.ts';
import { $cartLoading } from '../../lib/stores/cart.ts';
import { $shownCards } from '../../lib/stores/shown-cards.ts';

const SELECTOR = 'button[data-add-to-cart]';

interface ButtonState {
  data: CardButtonData;
  messages: CardButtonMessages;
  phase: CardButtonPhase;
  idleLabel: string;
  idleName: string | null;
  timer?: ReturnType<typeof setTimeout>;
}

const states = new WeakMap<HTMLButtonElement, ButtonState>();
/** The buttons' texts: the page's, written once (BaseLayout); read on the first click. */
let texts: CardButtonMessages | null | undefined;

function stateOf(button: HTMLButtonElement): ButtonState | null {
  let state = states.get(button);
  if (state === undefined) {
    // The product's name is the card's title.
    const title = button.closest('[data-card]')?.querySelector(':is(h2, h3)');
    const data = parseCardButton(button.dataset.addToCart, title?.textContent);
    texts ??= cardButtonMessages(pageMessages(PAGE_MESSAGES_ID));
    if (data === null || texts === null) return null;
    state = {
      data,
      messages: texts,
      phase: 'idle',
      idleLabel: button.textContent,
      idleName: button.getAttribute('aria-label'),
    };
    states.set(button, state);
  }
  return state;
}

function render(button: HTMLButtonElement, state: ButtonState): void {
  const view = cardButtonView(state.phase, state.messages, $cartLoading.get());
  button.textContent = view.label ?? state.idleLabel;
  if (view.keepAccessibleName && state.idleName !== null) {
    button.setAttribute('aria-label', state.idleName);
  } else {
    button.removeAttribute('aria-label');
  }
  button.disabled = view.disabled;
  button.dataset.phase = state.phase;
}

async function add(button: HTMLButtonElement): Promise<void> {
  const state = stateOf(button);
  if (state === null || state.phase === 'adding' || button.disabled) return;
  const { data, messages } = state;
  const card = button.closest('[data-card]');
  const listed = card === null ? null : cardListItem(card, data.productId);
  // The list's item (its name, place, brand, category), priced as the variant the card adds.
  const item = listed === null ? data.item : { ...listed, ...data.item };
  state.phase = 'adding';
  render(button, state);
  const added = await addToCartAndNotify(
    { productId: data.productId, variantId: data.variantId, quantity: 1 },
    item,
    {
      added: messages['Added to cart'],
      viewCart: messages['cart.viewCart'],
      error: messages['cart.error.add'],
      errors: messages,
      left: messages['cart.stock.addLeft'],
    },
  );
  if (!added) {
    state.phase = 'idle';
    render(button, state);
    return;
  }
  state.phase = 'added';
  render(button, state);
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.phase = 'idle';
    render(button, state);
  }, ADD_TO_CART_FEEDBACK_MS);
}

document.addEventListener('click', (event) => {
  const target = event.target;
  const button = target instanceof Element ? target.closest(SELECTOR) : null;
  if (button instanceof HTMLButtonElement) void add(button);
});

// spec §4: disabled while any cart action runs; enabled again after (unless it is adding),
// new cards of a listing updated in place included.
const renderAll = () => {
  for (const button of document.querySelectorAll<HTMLButtonElement>(SELECTOR)) {
    const state = stateOf(button);
    if (state !== null) render(button, state);
  }
};
$cartLoading.listen(renderAll);
$shownCards.listen(renderAll);
