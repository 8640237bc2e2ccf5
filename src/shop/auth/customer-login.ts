/**
 * BigCommerce Customer Login API: a logged-in shopper is sent to the hosted checkout through
 * `{storefront}/login/token/{jwt}`, a JWT signed (HS256) with the API account's client
 * secret, so the checkout knows them without a second login.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Cart } from '../../lib/commerce/types.ts';
import {
  createCartRedirectUrls,
  updateCartCustomer,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';

export interface CustomerLoginClaims {
  /** The API account's client id (`iss`). */
  clientId: string;
  storeHash: string;
  customerId: number;
  /** Path and query on the storefront to land on after login (the checkout). */
  redirectTo: string;
  /** Channel of the storefront when not BigCommerce's default one. */
  channelId?: number | undefined;
  /** Seconds since the epoch (default now). */
  issuedAt?: number | undefined;
  /** Unique id of the token (default a random UUID): BigCommerce refuses a reused one. */
  jti?: string | undefined;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The signed JWT (`header.payload.signature`). */
export function signCustomerLoginJwt(claims: CustomerLoginClaims, clientSecret: string): string {
  const header = base64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const payload = base64url(
    JSON.stringify({
      iss: claims.clientId,
      iat: claims.issuedAt ?? Math.floor(Date.now() / 1000),
      jti: claims.jti ?? randomUUID(),
      operation: 'customer_login',
      store_hash: claims.storeHash,
      customer_id: claims.customerId,
      redirect_to: claims.redirectTo,
      ...(claims.channelId === undefined || claims.channelId === 1
        ? {}
        : { channel_id: claims.channelId }),
    }),
  );
  const signature = createHmac('sha256', clientSecret)
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/**
 * The URL that logs the customer in on the storefront of `checkoutUrl` and lands on it:
 * `{checkout origin}/login/token/{jwt}` with `redirect_to` = the checkout's path and query.
 */
export function customerLoginUrl(
  checkoutUrl: string,
  claims: Omit<CustomerLoginClaims, 'redirectTo'>,
  clientSecret: string,
): string {
  const url = new URL(checkoutUrl);
  const jwt = signCustomerLoginJwt(
    { ...claims, redirectTo: `${url.pathname}${url.search}` },
    clientSecret,
  );
  return `${url.origin}/login/token/${jwt}`;
}

export interface CustomerLoginConfig {
  clientId: string;
  clientSecret: string;
  storeHash: string;
}

/**
 * The hosted checkout URL of a cart the caller may use. For a logged-in customer the cart is
 * assigned to them first when it is a guest cart, and the URL logs them in on the way; for a
 * visitor it is the plain checkout URL.
 */
export async function checkoutUrlFor(
  client: BigCommerceClient,
  cart: Pick<Cart, 'id' | 'customerId'>,
  customerId: number | null,
  login: CustomerLoginConfig,
): Promise<string> {
  if (customerId !== null && cart.customerId === 0) {
    await updateCartCustomer(client, cart.id, customerId);
  }
  const { checkoutUrl } = await createCartRedirectUrls(client, cart.id);
  if (customerId === null) return checkoutUrl;
  return customerLoginUrl(
    checkoutUrl,
    {
      clientId: login.clientId,
      storeHash: login.storeHash,
      customerId,
      channelId: client.channelId,
    },
    login.clientSecret,
  );
}
