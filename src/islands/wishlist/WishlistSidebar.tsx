/**
 * Wishlist sidebar (spec §2 sidebars, §4 wishlist): the items, clear (a customer's wishlist is
 * deleted and a new empty one made; a guest's local copy emptied), the account page for a
 * customer. Opened by the header's wishlist link; a drawer on the native `<dialog>`.
 */
import { useStore } from '@nanostores/react';
import { ACCOUNT_WISHLIST_PATH } from '../../lib/commerce/account-pages.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $customer } from '../../lib/stores/customer.ts';
import { closeWishlistSidebar, $wishlistSidebarOpen } from '../../lib/stores/ui.ts';
import { $wishlistCount, clearWishlist } from '../../lib/stores/wishlist.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { WishlistItems } from './WishlistItems.tsx';

export function WishlistSidebar({ t }: { t: Translate }) {
  const open = useStore($wishlistSidebarOpen);
  const count = useStore($wishlistCount);
  const customer = useStore($customer);
  return (
    <Dialog
      open={open}
      onClose={closeWishlistSidebar}
      title={t('wishlist.title')}
      closeLabel={t('wishlist.close')}
      variant="drawer-right"
      footer={
        count === 0 ? undefined : (
          <div className="flex flex-wrap items-center justify-between gap-2">
            {customer !== null && (
              <a href={ACCOUNT_WISHLIST_PATH} className={buttonClass('link', 'sm')}>
                {t('wishlist.viewAll')}
              </a>
            )}
            <button
              type="button"
              className={buttonClass('link', 'sm')}
              onClick={() => {
                void clearWishlist();
              }}
            >
              {t('wishlist.clear')}
            </button>
          </div>
        )
      }
    >
      <p className="sr-only" aria-live="polite">
        {t('wishlist.count', { count })}
      </p>
      {open && <WishlistItems t={t} />}
      {customer === null && count > 0 && (
        <p className="mt-4 text-sm text-neutral-600">{t('wishlist.loginHint')}</p>
      )}
    </Dialog>
  );
}
