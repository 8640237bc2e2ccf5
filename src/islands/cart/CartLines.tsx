/**
 * The cart's lines (spec §2 cart sidebar and /panier): picture, name linking to the product,
 * chosen options, unit price, quantity selector (debounced 500 ms, spec §9, bounded by the
 * variant's stock when tracked), the line's stock flag and fix (`CartLineStock`, spec §4 Stock)
 * and remove button. Reads the cart store; the actions serialise the writes to the cart. The
 * quantity field shows what the cart holds: a refused change goes back to the cart's quantity.
 */
import { useStore } from '@nanostores/react';
import { cartItemView } from '../../lib/commerce/cart.ts';
import { LINE_STOCK_MESSAGES, lineQuantityMax } from '../../lib/commerce/line-stock.ts';
import { BOOLEAN_OPTION_MESSAGES, optionValueText } from '../../lib/commerce/item-options.ts';
import { formatPrice } from '../../lib/commerce/money.ts';
import { productPath } from '../../lib/commerce/slug.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import {
  $cartErrors,
  $cartItems,
  cartErrorText,
  CART_ERROR_MESSAGES,
  lineErrorText,
} from '../../lib/stores/cart.ts';
import { changeCartLineQuantity, removeCartLine } from '../../lib/stores/cart-tracking.ts';
import { PRICE_TAG_MESSAGES, PriceTag } from '../ui/PriceTag.tsx';
import { QuantitySelector } from '../ui/QuantitySelector.tsx';
import { Thumbnail } from '../ui/Thumbnail.tsx';
import { CartLineStock } from './CartLineStock.tsx';

/** Message keys the lines read. */
export const CART_LINES_MESSAGES = [
  ...PRICE_TAG_MESSAGES,
  ...BOOLEAN_OPTION_MESSAGES,
  'cart.quantity',
  'cart.increase',
  'cart.decrease',
  'cart.removeItem',
  'cart.lineTotal',
  ...CART_ERROR_MESSAGES,
  ...LINE_STOCK_MESSAGES,
] as const;

export function CartLines({ t, size = 'sm' }: { t: Translate; size?: 'sm' | 'lg' }) {
  const items = useStore($cartItems);
  const errors = useStore($cartErrors);
  const image = size === 'lg' ? 'size-24 sm:size-28' : 'size-20';
  const error = cartErrorText(errors);
  return (
    <>
      <p aria-live="assertive" className="text-sm font-semibold text-danger" data-cart-error>
        {error === null ? '' : t(error)}
      </p>
      <ul className="flex flex-col divide-y divide-neutral-200" data-cart-lines>
        {items.map((item) => {
          const view = cartItemView(item);
          const lineError = lineErrorText(errors, view.id);
          return (
            <li key={view.id} className="flex gap-4 py-4" data-cart-line={view.sku}>
              <Thumbnail src={view.image} size={96} className={image} />
              <div className="flex min-w-0 flex-1 flex-col gap-1.5">
                <a
                  href={productPath({ id: view.productId, name: view.name })}
                  className="font-semibold text-primary-900 hover:underline"
                >
                  {view.name}
                </a>
                {view.attributes.length > 0 && (
                  <ul className="text-sm text-neutral-700">
                    {view.attributes.map((attribute) => (
                      <li key={attribute.name}>
                        {attribute.name} : {optionValueText(attribute.value, t)}
                      </li>
                    ))}
                  </ul>
                )}
                <PriceTag price={view.price} t={t} className="text-sm" />
                <CartLineStock item={item} t={t} />
                {lineError !== null && (
                  <p role="alert" className="text-sm font-semibold text-danger" data-line-error>
                    {view.name} : {t(lineError)}
                  </p>
                )}
                <div className="mt-1 flex flex-wrap items-center justify-between gap-3">
                  <QuantitySelector
                    value={view.quantity}
                    max={lineQuantityMax(item)}
                    labels={{
                      quantity: `${t('cart.quantity')} : ${view.name}`,
                      decrease: t('cart.decrease'),
                      increase: t('cart.increase'),
                    }}
                    onCommit={(quantity) => changeCartLineQuantity(view.id, quantity)}
                  />
                  <span className="font-semibold tabular-nums">
                    <span className="sr-only">{t('cart.lineTotal')} </span>
                    {formatPrice(item.extendedSalePrice)}
                  </span>
                </div>
                <button
                  type="button"
                  className="self-start text-sm text-neutral-700 underline underline-offset-4 hover:text-danger"
                  onClick={() => {
                    void removeCartLine(view.id);
                  }}
                >
                  {t('cart.removeItem', { name: view.name })}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
