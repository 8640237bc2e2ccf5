/**
 * The cart at login and logout (spec §4), in the cart store's queue (`cart-core.ts`): the
 * login merge, deferred by a transient fault until `retryCart`, and the reseller's cart of the
 * cookie; after logout a new guest cart. Exported through `cart.ts`.
 */
import { atom } from 'nanostores';
import { api } from '../api/bigcommerce.ts';
import { guestLineItems, loginMergePlan } from '../commerce/cart.ts';
import type { Cart, CurrentCustomer } from '../commerce/types.ts';
import {
  $cart,
  $cartErrors,
  CartActionError,
  cartFault,
  enqueue,
  fail,
  fetchCart,
  forget,
  keep,
  load,
  loadCart,
} from './cart-core.ts';

let resellerArea = false;

/**
 * With the reseller area on (FEATURE_RESELLER_AREA), a reseller's login keeps the cart of the
 * cookie (spec §4 reseller cart) rather than merging with a saved one.
 */
export function configureResellerArea(enabled: boolean): void {
  resellerArea = enabled;
}

type MergeCustomer = Pick<CurrentCustomer, 'savedCartId'> &
  Partial<Pick<CurrentCustomer, 'isReseller'>>;

/** The login merge a transient fault deferred (retried by `retryCart`), or null. */
let pendingMerge: MergeCustomer | null = null;

/** Whether a login merge waits for a retry (a transient fault deferred it). */
export const $cartMergePending = atom(false);

/** Assigns `cartId` to the customer; a cart that is gone is forgotten (the empty cart). */
async function assign(cartId: string): Promise<void> {
  try {
    keep(await api.updateCart({ id: cartId }));
  } catch (error) {
    if (cartFault(error) !== 'gone') throw error;
    forget();
  }
}

async function runMerge(customer: MergeCustomer): Promise<boolean> {
  $cartErrors.setKey('load', null);
  let guest = $cart.get();
  try {
    if (guest.id === null) {
      // Logged in before the page loaded the cart of the cookie (initCart waits for the
      // browser to be idle): read it now, or its items would be left out of the merge.
      guest = await load(false);
    }
    // A reseller's cart is the one of the cookie, assigned to them (spec §4 reseller area).
    const reseller = resellerArea && customer.isReseller === true;
    const plan = loginMergePlan(reseller ? null : customer.savedCartId, guest);
    try {
      switch (plan.action) {
        case 'assign':
          await assign(plan.cartId);
          break;
        case 'create':
          // Nothing saved, nothing in the cart: the empty cart stays until the first add.
          break;
        case 'merge': {
          let merged: Cart | null;
          try {
            merged = await api.addCartItems({
              cartId: plan.savedCartId,
              lineItems: plan.lineItems,
            });
          } catch (error) {
            if (cartFault(error) !== 'gone') throw error;
            merged = null;
          }
          if (merged === null) {
            // The saved cart is gone: the guest cart becomes the customer's.
            if (guest.id !== null) await assign(guest.id);
          } else {
            // The guest items are in the saved cart now: it is the shopper's cart from here
            // on, so a retry after a fault below assigns it, never adds the items twice.
            keep(merged);
            await assign(plan.savedCartId);
          }
          break;
        }
        case 'load-saved': {
          const saved = await fetchCart(plan.savedCartId);
          // The saved cart is gone: the empty cart, until the first add makes one.
          if (saved) keep(saved);
          else forget();
          break;
        }
      }
    } catch (error) {
      if (cartFault(error) === 'transient') throw error;
      // spec §4: "On any failure a new cart is created and assigned": a definite refusal
      // (another browser paying for the guest cart...), with the guest's items, so none is
      // lost.
      console.error(`cart login merge (${plan.action}) refused, creating a new cart:`, error);
      const lineItems = guestLineItems(guest);
      if (lineItems.length === 0) {
        forget();
      } else {
        const created = await api.createCart({ lineItems });
        if (created === null) throw new CartActionError('cart-missing');
        keep(created);
      }
    }
    pendingMerge = null;
    $cartMergePending.set(false);
    return true;
  } catch (error) {
    // A transient fault never makes a second cart nor touches the saved 'Cart ID':
    // the login stands, the cart of the cookie stays (with every guest item), and the merge
    // waits for `retryCart`.
    pendingMerge = customer;
    $cartMergePending.set(true);
    return fail('load', error);
  }
}

/**
 * spec §4 login merge, run right after a login or a registration:
 * no saved cart → the current cart is assigned to the customer; a saved cart and a non-empty
 * guest cart → the guest items are added to the saved cart, which is then assigned; a saved
 * cart and an empty guest cart → the saved cart is loaded. A cart the API says is gone is
 * replaced (the saved one by the guest cart, the guest one by the empty cart). On a definite
 * refusal a new cart is created (with the guest's items, so none is lost) and assigned. On a
 * transient fault (5xx, timeout, no reply) nothing is created or dropped: the cart of the
 * cookie stays, the load slot says why, and `retryCart` runs the merge again.
 */
export function mergeCartOnLogin(customer: MergeCustomer): Promise<boolean> {
  return enqueue(() => runMerge(customer));
}

/**
 * The "Réessayer" of a cart that could not be loaded: the deferred login merge if a fault
 * stopped one, else the cart of the cookie again.
 */
export function retryCart(): Promise<boolean> {
  const customer = pendingMerge;
  if (customer !== null) return enqueue(() => runMerge(customer));
  return loadCart();
}

/**
 * After logout the customer's cart is no longer the shopper's: the cookie is cleared and the
 * shopper starts a new guest cart (the customer finds theirs again at the next login, spec §4).
 */
export function resetCartOnLogout(): Promise<boolean> {
  return enqueue(() => {
    $cartErrors.setKey('load', null);
    pendingMerge = null;
    $cartMergePending.set(false);
    forget();
    return Promise.resolve(true);
  });
}
