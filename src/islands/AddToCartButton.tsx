/**
 * Add-to-cart button of the product page (spec §2 catalogue UI): adds one line to the cart,
 * shows "Ajouté" for 1 s (spec §9), and is disabled when the variant is not purchasable or
 * while the cart loads (spec §4). The variant picker renders it with the chosen variant and
 * quantity. Product cards do not hydrate it: theirs is static markup run by one script per
 * page (`components/cart/CardAddToCart.astro`, same rules in `lib/commerce/card-button.ts`).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ADD_TO_CART_FEEDBACK_MS } from '../lib/commerce/cart.ts';
import type { OptionSelection } from '../lib/commerce/item-options.ts';
import { createTranslator, type Messages } from '../lib/i18n/translate.ts';
import type { AnalyticsItem } from '../lib/analytics/datalayer.ts';
import {
  ADD_ERROR_MESSAGES,
  ADD_LEFT_MESSAGE,
  addToCartAndNotify,
} from '../lib/stores/add-to-cart.ts';
import { $cartLoading } from '../lib/stores/cart.ts';
import { buttonClass } from '../lib/ui/classes.ts';

/** Message keys the button shows in any state (the product page's picker changes variant). */
export const ADD_TO_CART_MESSAGES = [
  'cart.add',
  'cart.adding',
  'cart.added',
  'cart.addLabel',
  'Added to cart',
  'cart.viewCart',
  'cart.error.add',
  ...ADD_ERROR_MESSAGES,
  ADD_LEFT_MESSAGE,
] as const;

export interface AddToCartButtonProps {
  productId: number;
  /** The variant to add; null when the chosen combination does not exist. */
  variantId: number | null;
  /** Choices that make no variant (checkbox modifiers), sent with the line. */
  optionSelections?: readonly OptionSelection[];
  quantity?: number;
  purchasable: boolean;
  /** Product name, for the button's accessible name on cards and for analytics. */
  name: string;
  /**
   * GA4 item of the product, pushed with add_to_cart (spec §9 analytics); `item_id`,
   * `item_name` and `quantity` default to the product id, name and quantity.
   */
  analyticsItem: Partial<AnalyticsItem> & { price: number };
  messages: Messages;
  size?: 'md' | 'lg';
  fullWidth?: boolean;
}

type Phase = 'idle' | 'adding' | 'added';

export function AddToCartButton({
  productId,
  variantId,
  optionSelections = [],
  quantity = 1,
  purchasable,
  name,
  analyticsItem,
  messages,
  size = 'md',
  fullWidth = false,
}: AddToCartButtonProps) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const loading = useStore($cartLoading);
  const [phase, setPhase] = useState<Phase>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
    },
    [],
  );

  const canAdd = purchasable && variantId !== null;
  async function add() {
    if (!canAdd || phase === 'adding') return;
    setPhase('adding');
    const added = await addToCartAndNotify(
      {
        productId,
        variantId,
        quantity,
        ...(optionSelections.length > 0 ? { optionSelections: [...optionSelections] } : {}),
      },
      { item_id: String(productId), item_name: name, ...analyticsItem, quantity },
      {
        added: t('Added to cart'),
        viewCart: t('cart.viewCart'),
        error: t('cart.error.add'),
        errors: Object.fromEntries(ADD_ERROR_MESSAGES.map((key) => [key, t(key)])),
        left: t(ADD_LEFT_MESSAGE),
      },
    );
    if (!added) {
      setPhase('idle');
      return;
    }
    setPhase('added');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setPhase('idle');
    }, ADD_TO_CART_FEEDBACK_MS);
  }

  const label = !canAdd
    ? t('Currently unavailable')
    : phase === 'adding'
      ? t('cart.adding')
      : phase === 'added'
        ? t('cart.added')
        : t('cart.add');
  return (
    <button
      type="button"
      className={buttonClass('primary', size, { fullWidth })}
      disabled={!canAdd || loading || phase === 'adding'}
      // "Ajouter au panier : {name}" on a page of many cards; it starts with the visible text.
      aria-label={canAdd && phase === 'idle' ? t('cart.addLabel', { name }) : undefined}
      data-phase={phase}
      onClick={() => {
        void add();
      }}
    >
      {label}
    </button>
  );
}
