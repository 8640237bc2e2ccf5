/**
 * "Passer commande" (spec §4): the link to checkout with the `t` time-stamp, taken at the click
 * rather than when the link rendered.
 */
import { buttonClass } from '../../components/ui/classes.ts';
import { checkoutLink } from '../../lib/commerce/cart.ts';

export function CheckoutLink({ label }: { label: string }) {
  return (
    <a
      href={checkoutLink()}
      className={buttonClass('primary', 'lg', { fullWidth: true })}
      onClick={(event) => {
        event.currentTarget.href = checkoutLink();
      }}
    >
      {label}
    </a>
  );
}
