/**
 * The stock flag of one cart line (spec §4 Stock, `line-stock.ts`): when the line's variant is
 * out of stock, has fewer units left than the line's quantity, or can no longer be bought, says
 * so on that line with the item's name and what is left, with its one-click fix ("Réduire à 2"
 * or "Retirer"). Nothing when the line can be paid as it is, or its stock is unknown.
 */
import {
  LINE_STOCK_MESSAGE_KEYS,
  lineStockFix,
  lineStockIssue,
} from '../../lib/commerce/line-stock.ts';
import type { CartLineItem } from '../../lib/commerce/types.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { changeCartLineQuantity, removeCartLine } from '../../lib/stores/cart-tracking.ts';
import { buttonClass } from '../../lib/ui/classes.ts';

export function CartLineStock({ item, t }: { item: CartLineItem; t: Translate }) {
  const issue = lineStockIssue(item);
  if (issue === null) return null;
  const fix = lineStockFix(issue);
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-control bg-danger-soft px-3 py-2 text-sm"
      data-line-stock-issue={issue.kind}
    >
      <p className="font-semibold text-danger">
        {t(LINE_STOCK_MESSAGE_KEYS[issue.kind], { name: item.name, count: issue.left })}
      </p>
      <button
        type="button"
        className={buttonClass('outline', 'sm')}
        data-line-stock-fix={fix.kind}
        onClick={() => {
          void (fix.kind === 'reduce'
            ? changeCartLineQuantity(item.id, fix.quantity)
            : removeCartLine(item.id));
        }}
      >
        {fix.kind === 'reduce'
          ? t('cart.stock.reduce', { count: fix.quantity })
          : t('cart.stock.remove', { name: item.name })}
      </button>
    </div>
  );
}
