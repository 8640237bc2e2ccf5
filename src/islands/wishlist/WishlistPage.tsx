/**
 * The account's wishlist page (`/mon-compte/mes-favoris`): the customer's wishlist items with
 * move to cart and remove (WishlistItems), and clear (spec §4).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo } from 'react';
import { createTranslator, type Messages } from '../../lib/i18n/translate.ts';
import { initCustomer } from '../../lib/stores/customer.ts';
import { $wishlistCount, clearWishlist, initWishlist } from '../../lib/stores/wishlist.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { WISHLIST_ITEMS_MESSAGES, WishlistItems } from './WishlistItems.tsx';
import { useClientRender } from '../ui/client-render.ts';

export const WISHLIST_PAGE_MESSAGES = [...WISHLIST_ITEMS_MESSAGES, 'wishlist.clear'] as const;

export function WishlistPage({ messages }: { messages: Messages }) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const count = useStore($wishlistCount);
  // Browser-only state: not rendered on the server nor in the hydration render (React #418).
  const client = useClientRender();
  useEffect(() => {
    // The shell does the same when idle; both run once per page.
    void initCustomer().then(initWishlist);
  }, []);
  return (
    <div className="flex flex-col gap-4" data-wishlist-page>
      <WishlistItems t={t} />
      {client && count > 0 && (
        <button
          type="button"
          className={buttonClass('outline', 'sm', { className: 'self-start' })}
          onClick={() => {
            void clearWishlist();
          }}
        >
          {t('wishlist.clear')}
        </button>
      )}
    </div>
  );
}
