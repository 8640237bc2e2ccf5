/**
 * The carts resellers sent to clients, in the shared store (every copy sees them; rules in
 * `../commerce/sent-carts.ts`): one record per cart (`sent-cart:{cartId}`: who prepared it, for
 * whom, its total and state) and one list per reseller (`sent-carts:{customerId}`: their newest
 * cart ids, at most `MAX_SENT_CARTS`). Both live as long as a cart link works
 * (`CART_LINK_VALID_MS`) after their last change, so nothing grows without bound. Only the
 * server writes them (the send, the link's opening, the order's confirmation): a client cannot
 * forge who prepared a cart. A record changes under a store lock, so an opening and a payment
 * racing each other both count; the state only moves forward.
 *
 * An order placed from a sent cart (its confirmation, `/paiement?commande=`) makes the cart
 * 'paid' and writes its seller in the order's staff notes (`recordSentCartOrder`): the hosted
 * checkout creates the order, so the shop records the seller right after.
 */
import { z } from 'zod';
import {
  advanceSentCart,
  CART_LINK_VALID_MS,
  MAX_SENT_CARTS,
  SENT_CART_STATES,
  withSentCart,
  type SentCart,
  type SentCartEvent,
} from '../../lib/commerce/sent-carts.ts';
import type { Order } from '../../lib/commerce/types.ts';
import { t } from '../../lib/i18n/index.ts';
import { setOrderStaffNotes, type BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import { logFailure } from '../faults/failures.ts';
import { mayListSentCart } from './ownership.ts';
import { withLock } from '../state/lock.ts';
import type { SharedStore } from '../state/types.ts';

const recordKey = (cartId: string) => `sent-cart:${cartId}`;
const listKey = (resellerId: number) => `sent-carts:${String(resellerId)}`;
const LOCK = { ttlMs: 10_000, waitMs: 10_000 } as const;

const SentCartSchema = z.object({
  cartId: z.string().min(1).max(64),
  resellerId: z.number().int().positive(),
  preparedBy: z.object({
    seller: z.string().max(500),
    reseller: z.string().max(500),
    email: z.string().max(500),
    phone: z.string().max(500),
  }),
  clientEmail: z.string().max(500),
  sentAt: z.number().int().nonnegative(),
  total: z.number().int(),
  currency: z.string().max(8),
  state: z.enum(SENT_CART_STATES),
  orderId: z.number().int().positive().nullable(),
}) satisfies z.ZodType<SentCart>;

const ListSchema = z.array(z.string().min(1).max(64)).max(MAX_SENT_CARTS);

function parse<T>(schema: z.ZodType<T>, raw: string | null): T | null {
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface SentCarts {
  /** Records a cart just sent (state 'sent') and puts it at the top of its reseller's list. */
  record(sent: SentCart): Promise<void>;
  /** The record of a sent cart, or null. */
  get(cartId: string): Promise<SentCart | null>;
  /** Applies an event to a sent cart: the record after it, or null when none is kept. */
  advance(cartId: string, event: SentCartEvent): Promise<SentCart | null>;
  /** The reseller's sent carts, newest first; only their own (`mayListSentCart`). */
  listFor(resellerId: number): Promise<SentCart[]>;
}

export function createSentCarts(store: SharedStore): SentCarts {
  const get = async (cartId: string) => parse(SentCartSchema, await store.get(recordKey(cartId)));
  const put = (sent: SentCart) =>
    store.set(recordKey(sent.cartId), JSON.stringify(sent), CART_LINK_VALID_MS);
  return {
    get,
    async record(sent) {
      await withLock(store, recordKey(sent.cartId), () => put(sent), LOCK);
      await withLock(
        store,
        listKey(sent.resellerId),
        async () => {
          const list = parse(ListSchema, await store.get(listKey(sent.resellerId))) ?? [];
          await store.set(
            listKey(sent.resellerId),
            JSON.stringify(withSentCart(list, sent.cartId)),
            CART_LINK_VALID_MS,
          );
        },
        LOCK,
      );
    },
    advance(cartId, event) {
      return withLock(
        store,
        recordKey(cartId),
        async () => {
          const found = await get(cartId);
          if (found === null) return null;
          const next = advanceSentCart(found, event);
          if (next !== found) await put(next);
          return next;
        },
        LOCK,
      );
    },
    async listFor(resellerId) {
      const list = parse(ListSchema, await store.get(listKey(resellerId))) ?? [];
      const records = await Promise.all(list.map(get));
      return records.filter(
        (sent): sent is SentCart => sent !== null && mayListSentCart(sent, resellerId),
      );
    },
  };
}

/** The order's staff note naming who prepared its cart. */
export function sentCartStaffNote(sent: SentCart): string {
  return t('reseller.staffNote', {
    seller: sent.preparedBy.seller,
    reseller: sent.preparedBy.reseller,
    resellerId: sent.resellerId,
    client: sent.clientEmail,
  });
}

/**
 * An order confirmed: when its cart was sent by a reseller and not yet paid, the seller goes
 * into the order's staff notes and the sent cart becomes 'paid' (a failed note is logged; the
 * state still follows the order). Nothing happens for any other order. Never throws.
 */
export async function recordSentCartOrder(
  client: BigCommerceClient,
  sentCarts: SentCarts,
  order: Pick<Order, 'id' | 'cartId'>,
): Promise<void> {
  if (order.cartId === '') return;
  try {
    const sent = await sentCarts.get(order.cartId);
    if (sent === null || sent.state === 'paid') return;
    await setOrderStaffNotes(client, order.id, sentCartStaffNote(sent)).catch((error: unknown) => {
      logFailure('reseller', 'writing the seller into the order failed', error);
    });
    await sentCarts.advance(order.cartId, { kind: 'paid', orderId: order.id });
  } catch (error) {
    logFailure('reseller', 'recording the sent cart’s order failed', error);
  }
}
