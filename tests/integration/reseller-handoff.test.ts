/**
 * A hand-off a client trusts, over real HTTP against the sandbox: a reseller sends a
 * cart; the client's e-mail is recorded with its HTML and text parts, its lines, total, seller
 * and validity; the hosted checkout is prefilled with the client's e-mail; opening the link
 * makes the sent cart 'opened'; paying on the hosted checkout makes it 'paid' with the seller in
 * the order's staff notes; the used, tampered and cut links say so (who to ask, no cookie); the
 * reseller lists their own sent carts only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { formatPrice } from '../../src/lib/commerce/money.ts';
import type { Cart } from '../../src/lib/commerce/types.ts';
import { createBigCommerceClient, getOrder } from '../../src/shop/connectors/bigcommerce/index.ts';
import { recordSentCartOrder } from '../../src/shop/carts/sent-carts.ts';
import { BREVO_KEY, someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;
let lines: { productId: number; variantId: number }[];

beforeAll(async () => {
  api = await startShopApi();
  lines = [await someVariant(api, 0), await someVariant(api, 1)];
});

afterAll(async () => {
  await api.close();
});

const reseller = CUSTOMERS.resellerWithSellers;

interface Mail {
  subject: string;
  body: string;
  textContent?: string;
}

async function lastMailTo(email: string): Promise<Mail | null> {
  const headers = { 'api-key': BREVO_KEY };
  const listed = (await (
    await fetch(
      `${api.sandbox.url}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`,
      { headers },
    )
  ).json()) as { transactionalEmails?: { uuid: string }[] };
  const uuid = listed.transactionalEmails?.[0]?.uuid;
  if (uuid === undefined) return null;
  return (await (
    await fetch(`${api.sandbox.url}/brevo/v3/smtp/emails/${uuid}`, { headers })
  ).json()) as Mail;
}

/** A reseller sends a two-line cart to a new client: the cart, the client, the link's path. */
async function sendCart(seller: string = reseller.sellers[1]) {
  const shopper = api.shopper();
  await shopper.login(reseller.email, reseller.password);
  const cart = await shopper.data<Cart>('createCart', [
    { lineItems: lines.map((line, i) => ({ ...line, quantity: i + 1 })) },
  ]);
  const email = `client-${crypto.randomUUID()}@example.fr`;
  await shopper.data('sendCartToClient', [{ cartId: cart.id }, { seller, email }]);
  const mail = await lastMailTo(email);
  const href = /href="([^"]+)"/.exec(mail?.body ?? '')?.[1]?.replaceAll('&amp;', '&') ?? '';
  const link = new URL(href);
  return { cart, email, mail, path: `${link.pathname}${link.search}`, link };
}

const client = () =>
  createBigCommerceClient({
    apiUrl: api.sandbox.url,
    storeHash: api.sandbox.storeHash,
    accessToken: api.sandbox.token,
    channelId: 1,
  });

describe('the client’s e-mail', () => {
  test('HTML and text parts: every line, the total to pay, the seller, the link and its validity', async () => {
    const { cart, mail, link } = await sendCart();
    expect(mail).not.toBeNull();
    const html = mail?.body ?? '';
    const text = mail?.textContent ?? '';
    expect(html).toMatch(/^<!doctype html><html lang="fr">/);
    expect(text).not.toBe('');
    for (const line of cart.lineItems.physicalItems) {
      expect(text).toContain(line.name);
      expect(text).toContain(
        `${String(line.quantity)} × ${formatPrice(line.salePrice)} = ${formatPrice(line.extendedSalePrice)}`,
      );
    }
    for (const part of [html, text]) {
      expect(part).toContain(formatPrice(cart.cartAmount));
      expect(part).toContain(reseller.sellers[1]);
      expect(part).toContain(reseller.shopName);
      expect(part).toContain(reseller.email);
      expect(part).toContain('30 jours');
    }
    expect(text).toContain(link.href);
  });

  test('the hosted checkout opens with the client’s e-mail', async () => {
    const { cart, email } = await sendCart();
    const checkout = await api.admin('GET', `v3/checkouts/${cart.id}`);
    expect(
      (checkout.json as { data: { billing_address: { email: string } } }).data.billing_address
        .email,
    ).toBe(email);
    const urls = await api.admin('POST', `v3/carts/${cart.id}/redirect_urls`);
    const { checkout_url: checkoutUrl } = (urls.json as { data: { checkout_url: string } }).data;
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain(`value="${email}"`);
  });
});

describe('the link’s life: sent, opened, paid; then used', () => {
  test('open, pay, the seller on the order; the used link says so and names the seller', async () => {
    const { cart, email, path } = await sendCart(reseller.sellers[2]);
    const { sentCarts } = api.account;
    expect(await sentCarts.get(cart.id)).toMatchObject({
      state: 'sent',
      clientEmail: email,
      resellerId: reseller.id,
      preparedBy: { seller: reseller.sellers[2], reseller: reseller.shopName },
    });

    // The client opens the link: the cart cookie, /panier, and the cart 'opened'.
    const buyer = api.shopper();
    const opened = await buyer.visit(path);
    expect(opened).toMatchObject({ status: 302, location: '/panier' });
    expect(buyer.cookies.get('cart-id')).toBe(cart.id);
    expect((await sentCarts.get(cart.id))?.state).toBe('opened');

    // The client pays on the hosted checkout; the confirmation records the order.
    const { url } = await buyer.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    const paid = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email,
        first_name: 'Claire',
        last_name: 'Cliente',
        address1: '3 rue des Lilas',
        postal_code: '44000',
        city: 'Nantes',
        phone: '0612345678',
        country: 'FR',
      }),
    });
    expect(paid.status).toBe(303);
    const orderId = Number(
      new URL(paid.headers.get('location') ?? '').searchParams.get('commande'),
    );
    const order = await getOrder(client(), orderId);
    expect(order?.cartId).toBe(cart.id);
    await recordSentCartOrder(client(), sentCarts, { id: orderId, cartId: cart.id });
    expect(await sentCarts.get(cart.id)).toMatchObject({ state: 'paid', orderId });
    const stored = await api.admin('GET', `v2/orders/${String(orderId)}`);
    const notes = (stored.json as { staff_notes: string }).staff_notes;
    expect(notes).toContain(reseller.sellers[2]);
    expect(notes).toContain(reseller.shopName);
    expect(notes).toContain(email);

    // The reseller's list: this cart, paid; another reseller sees none of it.
    const mine = await sentCarts.listFor(reseller.id);
    expect(mine.find((sent) => sent.cartId === cart.id)).toMatchObject({ state: 'paid' });
    expect(await sentCarts.listFor(CUSTOMERS.reseller.id)).toEqual([]);

    // The link again, in a new browser: used, who prepared it, no cookie.
    const late = api.shopper();
    const again = await late.visit(path);
    expect(again.text).toMatch(/^page \/vue\/lien-panier /);
    expect(JSON.parse(again.text.replace(/^page \S+ /, ''))).toMatchObject({
      problem: 'used',
      preparedBy: { seller: reseller.sellers[2], reseller: reseller.shopName },
    });
    expect(late.cookies.size).toBe(0);
  });

  test('a tampered, a cut or another cart’s token: invalid, nobody named, no cookie', async () => {
    const { cart, link } = await sendCart();
    const token = link.searchParams.get('token') ?? '';
    const other = await sendCart();
    const otherToken = other.link.searchParams.get('token') ?? '';
    for (const path of [
      `/panier?id=${cart.id}&token=${token.slice(0, -1)}x`,
      `/panier?id=${cart.id}&token=${otherToken}`,
      `/panier?id=${cart.id}`,
      `/panier?token=${token}`,
      `/?id=not-a-cart&token=${token}`,
    ]) {
      const visitor = api.shopper();
      const page = await visitor.visit(path);
      expect(page.text, path).toMatch(/^page \/vue\/lien-panier /);
      expect(JSON.parse(page.text.replace(/^page \S+ /, ''))).toEqual({
        problem: 'invalid',
        preparedBy: null,
      });
      expect(visitor.cookies.size).toBe(0);
    }
    // Still 'sent': nothing was opened.
    expect((await api.account.sentCarts.get(cart.id))?.state).toBe('sent');
  });
});
