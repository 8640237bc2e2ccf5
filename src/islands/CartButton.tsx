/**
 * Header cart button (spec §2): a link to /panier with the item-count badge; once hydrated, a
 * click opens the cart sidebar instead (the link still works without JavaScript, or with a
 * modifier key for a new tab). `badgeOnly` renders just the badge (mobile bottom bar).
 */
import { useStore } from '@nanostores/react';
import { useMemo, type ReactNode } from 'react';
import { CART_PATH } from '../lib/commerce/guards.ts';
import { createTranslator, type Messages } from '../lib/i18n/translate.ts';
import { $cartItemCount } from '../lib/stores/cart.ts';
import { openCartSidebar } from '../lib/stores/ui.ts';

export interface CartButtonProps {
  messages: Messages;
  /** Classes of the link, as the static header's icon links. */
  className?: string;
  /** The icon, rendered by the layout (static SVG). */
  children?: ReactNode;
}

export function CartBadge({ messages }: { messages: Messages }) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const count = useStore($cartItemCount);
  return <Badge count={count} label={t('header.cartCount', { count })} />;
}

function Badge({ count, label }: { count: number; label: string }) {
  if (count === 0) return null;
  return (
    <span
      data-cart-count={count}
      className="flex min-w-5 items-center justify-center rounded-full bg-sale px-1 text-xs leading-5 font-semibold text-white tabular-nums"
    >
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function CartButton({ messages, className = '', children }: CartButtonProps) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const count = useStore($cartItemCount);
  return (
    <a
      href={CART_PATH}
      className={`inline-flex ${className}`}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        openCartSidebar();
      }}
    >
      <span className="relative">
        {children}
        <span className="absolute -end-2.5 -top-1.5">
          <Badge count={count} label={t('header.cartCount', { count })} />
        </span>
      </span>
      <span className="sr-only xl:not-sr-only">{t('header.cart')}</span>
    </a>
  );
}
