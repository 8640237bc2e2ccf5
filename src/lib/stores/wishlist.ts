/**
 * The wishlist (spec §3, §4 wishlist, §5, §6, §7 wishlist methods, §9 page size 50), shared by
 * the hearts, the wishlist sidebar and the account page.
 *
 * - A guest's lines live in local storage (`$guestWishlist`, nanostores persistent, starting
 *   from GUEST_WISHLIST_DEFAULT); an add of a product and variant already there is ignored.
 * - A customer's wishlist is their first BigCommerce wishlist (the API answers only the
 *   session's own); it is created on the first add when they have none.
 * - On login the guest lines go to that wishlist (created if none) and the local copy is
 *   deleted; the wishlist is reloaded whenever the logged-in customer changes.
 * - Each action keeps its own error slot and logs its failure (spec §8). Actions never throw.
 */
import { persistentAtom } from '@nanostores/persistent';
import { atom, computed, map } from 'nanostores';
import { api } from '../api/bigcommerce.ts';
import { ApiCallError, errorMessage, logCallFailure } from '../api/client.ts';
import type { Product, Wishlist } from '../commerce/types.ts';
import {
  addGuestLine,
  DEFAULT_WISHLIST_NAME,
  hasLine,
  linesToMerge,
  parseGuestLines,
  productIdPages,
  wishlistItemView,
  type WishlistItemView,
  type WishlistLine,
} from '../commerce/wishlist.ts';
import { $customer, $isAuthenticated } from './customer.ts';

/** spec §4: the guest wishlist's starting value (configuration): empty. */
export const GUEST_WISHLIST_DEFAULT: readonly WishlistLine[] = [];

/** Local storage key of the guest wishlist. */
export const GUEST_WISHLIST_KEY = 'wishlist';

export const $guestWishlist = persistentAtom<WishlistLine[]>(
  GUEST_WISHLIST_KEY,
  [...GUEST_WISHLIST_DEFAULT],
  {
    encode: (lines) =>
      JSON.stringify(lines.map(({ productId, variantId }) => ({ productId, variantId }))),
    decode: parseGuestLines,
  },
);

export type WishlistAction = 'load' | 'add' | 'remove' | 'clear' | 'merge' | 'products';

export interface WishlistState {
  /** Whose lines these are; a customer's wishlist id (null until they have one). */
  owner: 'guest' | 'customer';
  id: number | null;
  lines: WishlistLine[];
  /** False while a logged-in customer's wishlist is not loaded yet. */
  ready: boolean;
}

export const $customerWishlist = atom<WishlistState | null>(null);

/**
 * The shopper's wishlist: the customer's once loaded (nothing, not ready, before that when the
 * marker says logged in), else the guest's.
 */
export const $wishlist = computed(
  [$customerWishlist, $guestWishlist, $isAuthenticated],
  (customer, guest, authenticated): WishlistState =>
    customer ??
    (authenticated
      ? { owner: 'customer', id: null, lines: [], ready: false }
      : { owner: 'guest', id: null, lines: guest, ready: true }),
);

export const $wishlistErrors = map<Record<WishlistAction, string | null>>({
  load: null,
  add: null,
  remove: null,
  clear: null,
  merge: null,
  products: null,
});
/** True while a wishlist action runs. */
export const $wishlistLoading = atom(false);

/** The products of the lines (for the sidebar), by id. */
export const $wishlistProducts = atom<ReadonlyMap<number, Product>>(new Map());

/** spec §3: the items as displayed, lines whose product is gone left out. */
export const $wishlistItems = computed([$wishlist, $wishlistProducts], (wishlist, products) =>
  wishlist.lines.flatMap((line): WishlistItemView[] => {
    const view = wishlistItemView(line, products.get(line.productId));
    return view ? [view] : [];
  }),
);

export const $wishlistCount = computed($wishlist, (wishlist) => wishlist.lines.length);

/** Whether the product and variant is in the wishlist (spec §4: both must match). */
export function isInWishlist(productId: number, variantId: number): boolean {
  return hasLine($wishlist.get().lines, productId, variantId);
}

// -- running actions ----------------------------------------------------------------------------

let queue: Promise<unknown> = Promise.resolve();
let running = 0;

/** Runs `task` after the previous wishlist actions (one wishlist, one writer at a time). */
function run(action: WishlistAction, task: () => Promise<void>): Promise<boolean> {
  const next = queue.then(async () => {
    running += 1;
    $wishlistLoading.set(true);
    $wishlistErrors.setKey(action, null);
    try {
      await task();
      return true;
    } catch (error) {
      logCallFailure(`wishlist ${action} failed:`, error);
      $wishlistErrors.setKey(action, errorMessage(error));
      return false;
    } finally {
      running -= 1;
      if (running === 0) $wishlistLoading.set(false);
    }
  });
  queue = next;
  return next;
}

const linesOf = (wishlist: Wishlist): WishlistLine[] =>
  wishlist.items.map((item) => ({
    id: item.id,
    productId: item.productId,
    variantId: item.variantId,
  }));

function keep(wishlist: Wishlist | null): void {
  $customerWishlist.set({
    owner: 'customer',
    id: wishlist?.id ?? null,
    lines: wishlist ? linesOf(wishlist) : [],
    ready: true,
  });
}

/** The customer's first wishlist (spec §4), null when they have none. */
async function firstWishlist(): Promise<Wishlist | null> {
  const all = await api.getAllWishlists();
  return all[0] ?? null;
}

async function createWishlist(items: { product_id: number; variant_id: number }[]) {
  return api.createWishlist({ name: DEFAULT_WISHLIST_NAME, is_public: false, items });
}

// -- loading and the login merge ---------------------------------------------------------------

/** Reloads the wishlist of whoever is logged in (the guest's needs no request). */
export function loadWishlist(): Promise<boolean> {
  return run('load', async () => {
    if ($customer.get() === null) {
      $customerWishlist.set(null);
      return;
    }
    keep(await firstWishlist());
  });
}

/**
 * spec §4 login: the guest lines go to the customer's first wishlist (created with them when
 * there is none), then the local copy is deleted. On failure the local copy stays, for the
 * next login, and the customer's wishlist is shown as it is.
 */
export function mergeGuestWishlist(): Promise<boolean> {
  return run('merge', async () => {
    const guest = $guestWishlist.get();
    let wishlist = await firstWishlist();
    if (guest.length > 0) {
      if (wishlist === null) {
        wishlist = await createWishlist(linesToMerge(guest, []));
      } else {
        const items = linesToMerge(guest, linesOf(wishlist));
        if (items.length > 0) {
          wishlist = await api.addWishlistItems({ wishlistId: wishlist.id, items });
        }
      }
      $guestWishlist.set([]);
    }
    keep(wishlist);
  });
}

let started = false;

/**
 * Once per page, after the customer is known: the wishlist of whoever is logged in, reloaded
 * when that changes (a login merges the guest lines first; a logout goes back to the guest's).
 */
export function initWishlist(): void {
  if (started) return;
  started = true;
  let customerId = $customer.get()?.id ?? null;
  if (customerId !== null) void mergeGuestWishlist();
  $customer.listen((customer) => {
    const id = customer?.id ?? null;
    if (id === customerId) return;
    const loggedIn = customerId === null;
    customerId = id;
    $wishlistProducts.set(new Map());
    if (id !== null && loggedIn) void mergeGuestWishlist();
    else void loadWishlist();
  });
}

// -- changing the wishlist ----------------------------------------------------------------------

/** Adds the product and variant (a pair already there is ignored, spec §5). */
export function addToWishlist(productId: number, variantId: number): Promise<boolean> {
  return run('add', async () => {
    const current = $wishlist.get();
    if (hasLine(current.lines, productId, variantId)) return;
    if (current.owner === 'guest') {
      $guestWishlist.set(addGuestLine(current.lines, productId, variantId));
      return;
    }
    const items = [{ product_id: productId, variant_id: variantId }];
    // Not loaded yet, or none: the first wishlist if there is one now (never a second one).
    const id = current.id ?? (await firstWishlist())?.id ?? null;
    keep(
      id === null
        ? await createWishlist(items)
        : await api.addWishlistItems({ wishlistId: id, items }),
    );
  });
}

/** Removes a line (the product and variant, for a guest). */
export function removeFromWishlist(line: WishlistLine): Promise<boolean> {
  return run('remove', async () => {
    const current = $wishlist.get();
    if (current.owner === 'guest') {
      $guestWishlist.set(
        current.lines.filter(
          (l) => l.productId !== line.productId || l.variantId !== line.variantId,
        ),
      );
      return;
    }
    if (current.id === null || line.id === null) return;
    const reply = await api.removeWishlistItem({ wishlistId: current.id, itemId: line.id });
    keep(reply);
  });
}

/** The heart: adds the pair, or removes it when it is there. */
export function toggleWishlist(productId: number, variantId: number): Promise<boolean> {
  const line = $wishlist
    .get()
    .lines.find((l) => l.productId === productId && l.variantId === variantId);
  return line ? removeFromWishlist(line) : addToWishlist(productId, variantId);
}

/** Whether a failed call says the wishlist no longer exists (the API's 404 'Wishlist not found'). */
export function wishlistGone(error: unknown): boolean {
  return (
    error instanceof ApiCallError &&
    error.code === 'api' &&
    error.statusCode === 404 &&
    error.message === 'Wishlist not found'
  );
}

/**
 * spec §4 clear: a customer's wishlist is deleted and a new empty one created; a guest's local
 * storage is emptied.
 */
export function clearWishlist(): Promise<boolean> {
  return run('clear', async () => {
    const current = $wishlist.get();
    if (current.owner === 'guest') {
      $guestWishlist.set([]);
      return;
    }
    if (current.id !== null) {
      try {
        await api.deleteWishlist(current.id);
      } catch (error) {
        // Already gone (another tab cleared it): go on with a new one. Any other failure (a
        // 5xx, a timeout, no reply) keeps the wishlist as it is (a fault loses nothing).
        if (!wishlistGone(error)) throw error;
      }
      // Deleted: until the new one exists the customer has none (an add then creates it,
      // never a second one), whether or not the creation below gets through.
      keep(null);
    }
    keep(await createWishlist([]));
  });
}

/**
 * The products of the lines not read yet, 50 a page (spec §9), for the sidebar and the account
 * page. A product the API no longer gives (hidden, deleted) is simply not shown.
 */
export function loadWishlistProducts(): Promise<boolean> {
  return run('products', async () => {
    const known = $wishlistProducts.get();
    const missing = $wishlist.get().lines.filter((line) => !known.has(line.productId));
    if (missing.length === 0) return;
    const products = new Map(known);
    for (const ids of productIdPages(missing)) {
      for (const product of await api.getProductsById({ entityIds: ids })) {
        products.set(product.id, product);
      }
    }
    $wishlistProducts.set(products);
  });
}
