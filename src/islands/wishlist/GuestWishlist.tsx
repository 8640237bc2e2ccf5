/**
 * The guest's favourites on the login page: a guest sent to /connexion on the way
 * to the account's wishlist sees the favourites this browser keeps (`localStorage`), which the
 * login adds to the account (spec §4 merge). Nothing shows without any, or before hydration
 * (the list is the browser's: `useClientRender`).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo } from 'react';
import { createTranslator, type Messages } from '../../lib/i18n/translate.ts';
import { initCustomer } from '../../lib/stores/customer.ts';
import { $wishlistCount, initWishlist } from '../../lib/stores/wishlist.ts';
import { useClientRender } from '../ui/client-render.ts';
import { WISHLIST_ITEMS_MESSAGES, WishlistItems } from './WishlistItems.tsx';

export const GUEST_WISHLIST_MESSAGES = [
  ...WISHLIST_ITEMS_MESSAGES,
  'wishlist.loginKept_one',
  'wishlist.loginKept_other',
] as const;

export function GuestWishlist({ messages }: { messages: Messages }) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const count = useStore($wishlistCount);
  const client = useClientRender();
  useEffect(() => {
    void initCustomer().then(initWishlist);
  }, []);
  if (!client || count === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-guest-wishlist>
      <p className="text-sm text-neutral-700">{t('wishlist.loginKept', { count })}</p>
      <WishlistItems t={t} />
    </div>
  );
}
