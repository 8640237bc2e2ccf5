/**
 * The wishlist's items (spec §3 item as displayed: image, name, sku, regular and special
 * price, stock, colour and size; spec §4 move to cart), shared by the wishlist sidebar and the
 * account page. "Move to cart" adds one unit of the item's variant, then notifies "Added to
 * cart"; it is disabled while the cart loads or when the item cannot be bought.
 */
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { STOCK_MESSAGE_KEYS } from '../../lib/commerce/stock.ts';
import type { WishlistItemView } from '../../lib/commerce/wishlist.ts';
import { OFFLINE_MESSAGE } from '../../lib/api/client.ts';
import { errorText, type Translate } from '../../lib/i18n/translate.ts';
import { wishlistLineItem } from '../../lib/analytics/datalayer.ts';
import {
  ADD_ERROR_MESSAGES,
  ADD_LEFT_MESSAGE,
  addToCartAndNotify,
} from '../../lib/stores/add-to-cart.ts';
export { WISHLIST_ITEMS_MESSAGES } from './wishlist-messages.ts';
import { $cartLoading } from '../../lib/stores/cart.ts';
import {
  $wishlist,
  $wishlistErrors,
  $wishlistItems,
  $wishlistLoading,
  loadWishlistProducts,
  removeFromWishlist,
} from '../../lib/stores/wishlist.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { PriceTag } from '../ui/PriceTag.tsx';
import { Thumbnail } from '../ui/Thumbnail.tsx';
import { useClientRender } from '../ui/client-render.ts';

/**
 * The slot to show (spec §8 each action's slot), as its action's text, or as the offline
 * message when the action got no reply offline.
 */
function errorKey(errors: Readonly<Record<string, string | null>>): string | null {
  for (const action of ['products', 'load', 'merge', 'add', 'remove', 'clear'] as const) {
    const error = errors[action];
    if (error === OFFLINE_MESSAGE) return error;
    if (error !== null) return `wishlist.error.${action}`;
  }
  return null;
}

export function WishlistItems({ t }: { t: Translate }) {
  const wishlist = useStore($wishlist);
  const items = useStore($wishlistItems);
  const loading = useStore($wishlistLoading);
  const cartLoading = useStore($cartLoading);
  const error = errorKey(useStore($wishlistErrors));
  // The wishlist is the browser's (the login marker, the guest's list): the server and the
  // hydration render say "loading" alike (a text rendered from browser state was React #418).
  const client = useClientRender();

  // The products of the lines, read when the lines change (50 a page, spec §9).
  useEffect(() => {
    void loadWishlistProducts();
  }, [wishlist.lines]);

  const move = (item: WishlistItemView) =>
    addToCartAndNotify(
      { productId: item.line.productId, variantId: item.variantId, quantity: 1 },
      wishlistLineItem(item),
      {
        added: t('Added to cart'),
        viewCart: t('cart.viewCart'),
        error: t('cart.error.add'),
        errors: Object.fromEntries(ADD_ERROR_MESSAGES.map((key) => [key, t(key)])),
        left: t(ADD_LEFT_MESSAGE),
      },
    );

  return (
    <div className="flex flex-col gap-3" aria-busy={loading}>
      <p aria-live="assertive" className="text-sm font-semibold text-danger" data-wishlist-error>
        {client ? errorText(t, error) : ''}
      </p>
      {!client || !wishlist.ready ? (
        <p className="py-6 text-neutral-700">{t('common.loading')}</p>
      ) : wishlist.lines.length === 0 ? (
        <p className="py-6 text-neutral-700">{t('wishlist.empty')}</p>
      ) : items.length === 0 && loading ? (
        <p className="py-6 text-neutral-700">{t('common.loading')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-neutral-200" data-wishlist-items>
          {items.map((item) => (
            <li key={item.key} className="flex gap-4 py-4" data-wishlist-item={item.sku}>
              <Thumbnail src={item.image} size={80} className="size-20" />
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <a href={item.href} className="font-semibold text-primary-900 hover:underline">
                  {item.name}
                </a>
                <p className="text-xs text-neutral-600">{t('wishlist.sku', { sku: item.sku })}</p>
                {(item.color !== null || item.size !== null) && (
                  <p className="text-sm text-neutral-700">
                    {[
                      item.color === null ? null : t('wishlist.color', { value: item.color }),
                      item.size === null ? null : t('wishlist.size', { value: item.size }),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                )}
                {item.price && <PriceTag price={item.price} t={t} className="text-sm" />}
                <p
                  className={`text-sm ${item.stockStatus === 'in-stock' || item.stockStatus === 'low-stock' ? 'text-success' : 'text-danger'}`}
                >
                  {t(STOCK_MESSAGE_KEYS[item.stockStatus], { count: item.stock ?? 0 })}
                </p>
                <div className="mt-1 flex flex-wrap items-center gap-3">
                  <button
                    type="button"
                    className={buttonClass('primary', 'sm')}
                    disabled={cartLoading || !item.purchasable}
                    aria-label={t('wishlist.moveItem', { name: item.name })}
                    onClick={() => {
                      void move(item);
                    }}
                  >
                    {t('wishlist.moveToCart')}
                  </button>
                  <button
                    type="button"
                    className="text-sm text-neutral-700 underline underline-offset-4 hover:text-danger"
                    onClick={() => {
                      void removeFromWishlist(item.line);
                    }}
                  >
                    {t('wishlist.removeItem', { name: item.name })}
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
