/**
 * The context of a `bigcommerce` method: the storefront's client, the caller's session, the
 * reply's cookies, the client (`ClientInfo`), and the shop's account services (session signing,
 * reset tokens, mail, customer login to the hosted checkout, throttling, cart write queue, the
 * carts resellers sent).
 */
import type { MailAddress, TransactionalEmail } from '../connectors/brevo/index.ts';
import type { BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import type { CheckoutHolders } from '../carts/checkout-holder.ts';
import type { ReplyCookies } from '../auth/cookies.ts';
import type { ResetTokens } from '../auth/password-reset.ts';
import { createSentCarts, type SentCarts } from '../carts/sent-carts.ts';
import type { ClientInfo } from '../auth/client.ts';
import type { Session, SessionManager } from '../auth/session.ts';
import { createLockedQueue, type KeyedQueue } from '../state/lock.ts';
import type { SharedStore } from '../state/types.ts';
import { retryAfterSeconds, type AccountThrottle } from '../throttle/throttle.ts';
import { ApiError } from './handle.ts';

export interface AccountServices {
  /** The shared state of every server copy (session ends, limits, reset links, cart locks). */
  store: SharedStore;
  sessions: SessionManager;
  resetTokens: ResetTokens;
  /** Sends a transactional e-mail (Brevo). */
  sendMail(email: TransactionalEmail): Promise<unknown>;
  /** Sender of the shop's e-mails. */
  mailSender: MailAddress;
  /** The shop's contact in its e-mails (COMPANY_EMAIL, COMPANY_PHONE; '' leaves one out). */
  shopContact: { email: string; phone: string };
  /**
   * The origin links in e-mails point at, for a request. Never the raw `Host` of any request:
   * a forged host would send the shopper's reset token to another site.
   */
  linkOrigin(request: Request): string;
  /** Customer Login API (hosted checkout as the logged-in customer). */
  customerLogin: { clientId: string; clientSecret: string; storeHash: string };
  /**
   * Login (device cookies, progressive delays), registration and reset-request limits, in the
   * shared store (`throttle.ts`).
   */
  throttle: AccountThrottle;
  /** Writes to one cart run one at a time, across server copies (keyed by cart id). */
  cartQueue: KeyedQueue;
  /** The key cart-link tokens are signed with (`cart-redirect.ts`: only the shop mints them). */
  cartLinkKey: Buffer;
  /** Which browser holds a guest cart's checkout (`checkout-holder.ts`). */
  checkouts: CheckoutHolders;
  /** The carts resellers sent to clients and how far each got (`sent-carts.ts`). */
  sentCarts: SentCarts;
}

/**
 * Lock of a cart's writes: a cart write is two upstream calls (read, then write) of at most
 * 10 s an attempt, so the lease outlasts the slowest one; waiting writers give up after 30 s.
 */
export const CART_LOCK = { prefix: 'cart:', ttlMs: 60_000, waitMs: 30_000 } as const;

/** The account services with the store-locked cart queue and the sent carts of the store. */
export function createAccountServices(
  services: Omit<AccountServices, 'cartQueue' | 'sentCarts' | 'shopContact'> &
    Partial<Pick<AccountServices, 'cartQueue' | 'sentCarts' | 'shopContact'>>,
): AccountServices {
  return {
    ...services,
    cartQueue: services.cartQueue ?? createLockedQueue(services.store, CART_LOCK),
    sentCarts: services.sentCarts ?? createSentCarts(services.store),
    shopContact: services.shopContact ?? { email: '', phone: '' },
  };
}

/** What every `bigcommerce` method receives. */
export interface ShopContext {
  client: BigCommerceClient;
  request: Request;
  session: Session;
  cookies: ReplyCookies;
  /** The client behind the trusted proxies (address for limits, public origin). */
  clientInfo: ClientInfo;
  /** Undefined when the service serves the catalogue only (no account configured). */
  account: AccountServices | undefined;
}

/** The account services; a catalogue-only service has none (500, like an unknown method). */
export function accountOf(context: ShopContext): AccountServices {
  if (context.account === undefined) {
    throw new ApiError(500, 'NOT_CONFIGURED', 'Customer accounts are not configured');
  }
  return context.account;
}

/** spec §6: the session's customer; a visitor gets 401 'Login required'. */
export function requireCustomer(context: ShopContext): number {
  const { customerId } = context.session;
  if (customerId === null) throw new ApiError(401, 'LOGIN_REQUIRED', 'Login required');
  return customerId;
}

/**
 * 429 'Too many attempts' with `Retry-After` (throttle.ts): the same for every limited method.
 * The wait is also in the reply's `details.retryAfter` (seconds, as the header), which the
 * forms show in words ("Réessayez dans 4 minutes").
 */
export const tooManyAttempts = (retryAfterMs: number) => {
  const seconds = retryAfterSeconds(retryAfterMs);
  return new ApiError(
    429,
    'TOO_MANY_ATTEMPTS',
    'Too many attempts',
    { 'Retry-After': String(seconds) },
    { retryAfter: seconds },
  );
};
