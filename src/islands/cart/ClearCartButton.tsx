/**
 * "Vider le panier" with a confirmation step: the button sits beside "Voir le
 * panier", so a slip must not empty the cart. A press turns it into an inline question
 * ("Vider le panier ?" with "Oui, vider" and "Annuler"), focus on "Annuler"; "Annuler" or
 * Escape puts the button back and focus on it (Escape does not close the sidebar around it);
 * "Oui, vider" clears the cart (`clearCart`). A clear that fails puts the button back too.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import { clearCart } from '../../lib/stores/cart.ts';
import { buttonClass } from '../../lib/ui/classes.ts';

/** Message keys the button reads. */
export const CLEAR_CART_MESSAGES = [
  'cart.clear',
  'cart.clearConfirm',
  'cart.clearConfirmYes',
  'cart.clearCancel',
] as const;

export function ClearCartButton({ t, className }: { t: Translate; className?: string }) {
  const [asking, setAsking] = useState(false);
  // Where focus goes after the state changes: the question's "Annuler", or the button again.
  const focusNext = useRef<'cancel' | 'button' | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const questionId = useId();

  useEffect(() => {
    const target = focusNext.current === 'cancel' ? cancelRef.current : buttonRef.current;
    if (focusNext.current !== null) target?.focus();
    focusNext.current = null;
  }, [asking]);

  const ask = () => {
    focusNext.current = 'cancel';
    setAsking(true);
  };
  const cancel = () => {
    focusNext.current = 'button';
    setAsking(false);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Escape answers the question only: the sidebar's dialog stays open.
    event.preventDefault();
    event.stopPropagation();
    cancel();
  };

  if (!asking) {
    return (
      <button
        ref={buttonRef}
        type="button"
        className={buttonClass('link', 'sm', { className })}
        onClick={ask}
      >
        {t('cart.clear')}
      </button>
    );
  }
  return (
    <div
      role="group"
      aria-labelledby={questionId}
      className={`flex flex-wrap items-center gap-2 ${className ?? ''}`}
      data-clear-cart-confirm
    >
      <p id={questionId} className="text-sm font-semibold text-neutral-900">
        {t('cart.clearConfirm')}
      </p>
      <button
        type="button"
        className={buttonClass('outline', 'sm')}
        onKeyDown={onKeyDown}
        onClick={() => {
          void clearCart().then((cleared) => {
            // Cleared: the cart views show the empty cart. Failed: the error slot says why.
            if (!cleared) cancel();
          });
        }}
      >
        {t('cart.clearConfirmYes')}
      </button>
      <button
        ref={cancelRef}
        type="button"
        className={buttonClass('ghost', 'sm')}
        onKeyDown={onKeyDown}
        onClick={cancel}
      >
        {t('cart.clearCancel')}
      </button>
    </div>
  );
}
