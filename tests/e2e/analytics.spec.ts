/**
 * spec §7, §9 analytics through the tag manager. The test build sets `GTM_CONTAINER_ID`
 * (GTM-TEST123, scripts/lib/test-env.ts); the container script is answered here by a recorder
 * that does what a container does with the data layer: reads what waits in it, then takes every
 * later push. It proves the container loads after the page under the CSP (no violation), and
 * that each event of spec §9 (user_data, view_item_list, view_item, add_to_cart, view_cart,
 * podcast_play) and the shipping push of spec §7 (add_shipping_info) reach it once per page,
 * with the customer fields when logged in and without them for a visitor; then the whole GA4
 * funnel a shopper walks (docs/analytics.md): select_item, view_item at load on a phone too,
 * add_to_cart priced as the chosen size, remove_from_cart, begin_checkout, purchase once per
 * order, search, login, sign_up and add_to_wishlist. Each test grants consent first
 * (`grantConsent`): without it there is no container (consent.spec.ts).
 */
import { type Page } from '@playwright/test';
import type { AnalyticsItem } from '../../src/lib/analytics/page-json.ts';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS } from '@literie/sandbox/fixtures';
import {
  clickInHeader,
  expect,
  grantConsent,
  payOnHostedCheckout,
  submitRegistration,
  test,
  uniqueEmail,
  waitForHydration,
  waitForIsland,
  waitForNetworkQuiet,
} from './helpers.ts';

const CONTAINER_URL = 'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123';
const CUSTOMER_FIELDS = [
  'customer_id',
  'customer_email',
  'customer_first_name',
  'customer_last_name',
];

/** The container stand-in: records the data layer the way a container reads it. */
const RECORDER = `(() => {
  const navigation = performance.getEntriesByType('navigation')[0];
  const gtm = { afterLoad: navigation !== undefined && navigation.loadEventEnd > 0, received: [] };
  window.__gtm = gtm;
  const layer = (window.dataLayer = window.dataLayer || []);
  // Each entry is also kept for the tab (sessionStorage), so a push made as the page is left
  // (select_item, begin_checkout, login) is read on the next page.
  const keep = (entry) => {
    const copy = JSON.parse(JSON.stringify(entry));
    gtm.received.push(copy);
    try {
      const log = JSON.parse(sessionStorage.getItem('__gtm_log') || '[]');
      log.push(copy);
      sessionStorage.setItem('__gtm_log', JSON.stringify(log));
    } catch {}
  };
  layer.forEach(keep);
  const push = layer.push.bind(layer);
  layer.push = (...entries) => {
    entries.forEach(keep);
    return push(...entries);
  };
})();`;

interface Received {
  event?: string;
  customer_id?: number;
  customer_email?: string;
  order_id?: string;
  shipping_address?: Record<string, string>;
  ecommerce?: {
    currency: string;
    shipping_tier?: string;
    items: { item_id: string; quantity: number }[];
  } | null;
}

/**
 * Grants consent (the container loads only after it, tests/e2e/consent.spec.ts), answers the
 * container script with the recorder and records, per document, the container requests and
 * the CSP violations. Returns the container URLs requested.
 */
async function recordContainer(page: Page): Promise<string[]> {
  await grantConsent(page);
  const requested: string[] = [];
  await page.route('https://www.googletagmanager.com/gtm.js*', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: RECORDER });
  });
  await page.addInitScript(() => {
    const holder = window as unknown as { cspViolations: string[] };
    holder.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      holder.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return requested;
}

/** Waits for the container of the current page; it came after the load event. */
async function containerLoaded(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => '__gtm' in window), { timeout: 15_000 }).toBe(true);
  expect(
    await page.evaluate(
      () => (window as unknown as { __gtm: { afterLoad: boolean } }).__gtm.afterLoad,
    ),
  ).toBe(true);
  expect(
    await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
}

/** What the container of the current page received (events only, no `{ ecommerce: null }`). */
const received = (page: Page): Promise<Received[]> =>
  page.evaluate(() =>
    (window as unknown as { __gtm: { received: Received[] } }).__gtm.received.filter(
      (entry) => entry.event !== undefined,
    ),
  );

/** How many times each event reached the container of the current page. */
async function counts(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const entry of await received(page)) {
    const name = entry.event ?? '';
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

const one = async (page: Page, name: string) =>
  (await received(page)).find((entry) => entry.event === name);

/** Customer fields of the events other than gtm.js, one `event:email` line each. */
async function carriers(page: Page): Promise<string[]> {
  return (await received(page))
    .filter((entry) => entry.event !== 'gtm.js')
    .map((entry) => `${entry.event ?? ''}:${entry.customer_email ?? '-'}`);
}

async function playPodcast(page: Page): Promise<void> {
  await page.goto('/les-yeux-fermes?tag=formatPodcast');
  // The first podcast with its audio (the hostile episode of npm test's sandbox has none).
  await page.locator('[data-sleep-list] article a:not([href$="/episode-piege"])').first().click();
  // The page's scripts (the player's listener) have run once it has loaded.
  await page.waitForURL(/\/les-yeux-fermes\/[^?]+$/, { waitUntil: 'load' });
  const player = page.locator('audio[data-sleep-player]');
  await expect(player).toBeVisible();
  await player.evaluate(async (audio: HTMLAudioElement) => {
    audio.muted = true;
    await audio.play();
    audio.pause();
    await audio.play();
  });
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill(password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  // The account page renders on request (and the login may wait its throttle's delay).
  await expect(page).toHaveURL(/mes-informations$/, { timeout: 15_000 });
}

/** On a product page: the container loaded, one unit added, the cart sidebar opened. */
async function addToCartAndOpenSidebar(page: Page): Promise<void> {
  await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'x' }));
  await containerLoaded(page);
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: /Panier$/ }));
  await expect(page.getByRole('dialog', { name: t('cart.title') })).toBeVisible();
}

/** The container URLs the current test's pages requested (`recordContainer`). */
let requested: string[] = [];

// Every test starts here: consent granted and the container answered by the recorder.
test.beforeEach(async ({ page }) => {
  requested = await recordContainer(page);
});

test('a visitor: the container loads after the page; each event once, without customer fields', async ({
  page,
}) => {
  await page.goto('/c/matelas');
  await containerLoaded(page);
  await expect.poll(() => counts(page)).toEqual({ 'gtm.js': 1, view_item_list: 1 });
  const list = await one(page, 'view_item_list');
  expect(list?.ecommerce?.currency).toBe('EUR');
  expect(list?.ecommerce?.items.length).toBeGreaterThan(0);
  expect(requested).toEqual([CONTAINER_URL]);

  await addToCartAndOpenSidebar(page);
  await expect
    .poll(() => counts(page))
    .toEqual({ 'gtm.js': 1, view_item: 1, add_to_cart: 1, view_cart: 1 });
  expect((await one(page, 'view_item'))?.ecommerce?.items[0]?.item_id).toBe(
    String(PRODUCTS.trackingNone),
  );
  expect((await one(page, 'add_to_cart'))?.ecommerce?.items[0]).toMatchObject({
    item_id: String(PRODUCTS.trackingNone),
    quantity: 1,
  });

  await playPodcast(page);
  await containerLoaded(page);
  await expect.poll(() => counts(page)).toEqual({ 'gtm.js': 1, podcast_play: 1 });

  for (const entry of await received(page)) {
    for (const field of CUSTOMER_FIELDS) expect(entry).not.toHaveProperty(field);
  }
  // One container per document: the listing, the product, the sleep list and its entry.
  expect(requested).toEqual(Array.from({ length: 4 }, () => CONTAINER_URL));
});

test('Marie logged in: user_data once per page, then each event once with her fields', async ({
  page,
}) => {
  await logIn(page, CUSTOMERS.marie.email, CUSTOMERS.marie.password);
  const email = CUSTOMERS.marie.email;

  // The listing's view_item_list is on the page before her data is: it waits for it.
  await page.goto('/c/matelas');
  await containerLoaded(page);
  await expect
    .poll(() => carriers(page))
    .toEqual([`user_data:${email}`, `view_item_list:${email}`]);
  expect(await one(page, 'user_data')).toEqual({
    event: 'user_data',
    customer_id: CUSTOMERS.marie.id,
    customer_email: email,
    customer_first_name: CUSTOMERS.marie.firstName,
    customer_last_name: CUSTOMERS.marie.lastName,
  });
  expect(await counts(page)).toEqual({ 'gtm.js': 1, user_data: 1, view_item_list: 1 });

  await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'x' }));
  await containerLoaded(page);
  await expect.poll(() => carriers(page)).toEqual([`user_data:${email}`, `view_item:${email}`]);
  expect(await one(page, 'view_item')).toMatchObject({ customer_id: CUSTOMERS.marie.id });

  await playPodcast(page);
  await containerLoaded(page);
  await expect.poll(() => carriers(page)).toEqual([`user_data:${email}`, `podcast_play:${email}`]);
  expect(await counts(page)).toEqual({ 'gtm.js': 1, user_data: 1, podcast_play: 1 });
});

test('a customer fills the cart and pays: add_to_cart, view_cart and the shipping push carry their fields, once', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A new account (Marie's cart and orders stay as the other suites expect them).
  const email = uniqueEmail('gtm');
  await page.goto('/inscription');
  await waitForHydration(page);
  await submitRegistration(page, email);
  await expect(page).toHaveURL(/mes-informations$/);

  await addToCartAndOpenSidebar(page);
  await expect
    .poll(() => carriers(page))
    .toEqual([
      `user_data:${email}`,
      `view_item:${email}`,
      `add_to_cart:${email}`,
      `view_cart:${email}`,
    ]);

  await page.goto('/paiement');
  await page.getByRole('button', { name: t('checkout.pay') }).click();
  await payOnHostedCheckout(page);
  const orderId = new URL(page.url()).searchParams.get('commande');
  await containerLoaded(page);
  await expect
    .poll(() => carriers(page))
    .toEqual([`user_data:${email}`, `add_shipping_info:${email}`, `purchase:${email}`]);
  const shipping = await one(page, 'add_shipping_info');
  expect(shipping).toMatchObject({
    order_id: orderId,
    shipping_address: { city: 'Lyon', postal_code: '69003', country_code: 'FR' },
    ecommerce: {
      currency: 'EUR',
      items: [{ item_id: String(PRODUCTS.trackingNone), quantity: 1 }],
    },
  });

  // Seeing the confirmation again sends no second shipping push nor purchase for that order.
  await page.reload();
  await containerLoaded(page);
  await expect.poll(() => carriers(page)).toEqual([`user_data:${email}`]);
});

// ---------------------------------------------------------------------------------------------
// The whole funnel (docs/analytics.md), from the same start (the file's `beforeEach`).

/** Every entry the containers of this tab received, page after page (the recorder's log). */
const tabLog = (page: Page): Promise<FunnelEntry[]> =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('__gtm_log') ?? '[]') as FunnelEntry[]);

interface FunnelEntry {
  event?: string;
  search_term?: string;
  method?: string;
  ecommerce?: {
    currency: string;
    value?: number;
    tax?: number;
    shipping?: number;
    transaction_id?: string;
    item_list_name?: string;
    items: AnalyticsItem[];
  } | null;
}

const events = async (page: Page, name: string): Promise<FunnelEntry[]> =>
  (await tabLog(page)).filter((entry) => entry.event === name);

/** A price as the page shows it ("1 009,00 €") in euros. */
const euros = (text: string): number => Number(text.replace(/[^\d,]/g, '').replace(',', '.'));

/** The price the product page's picker shows now (the special price when there is one). */
async function shownPrice(page: Page): Promise<number> {
  const price = page.locator('p:has(> span.text-2xl) > span.text-2xl').first();
  const text = await price.evaluate((node) => node.lastChild?.textContent ?? '');
  return euros(text);
}

test.describe('the whole funnel, GA4-shaped', () => {
  test('list → select_item → view_item → add_to_cart of another size → view_cart → remove_from_cart → begin_checkout → purchase once', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/c/matelas');
    await containerLoaded(page);
    const list = (await events(page, 'view_item_list'))[0];
    const first = list?.ecommerce?.items[0];
    expect(first).toMatchObject({ item_list_name: 'Matelas', index: 0 });
    // Brand and main category on list items; item_variant is never a SKU.
    expect(first?.item_brand).toBeTruthy();
    expect(first?.item_category).toBeTruthy();

    await page.locator('[data-card] a.card-link').first().click();
    await page.waitForURL(/\/p\/\d+\//, { waitUntil: 'load' });
    await containerLoaded(page);
    const selected = await events(page, 'select_item');
    expect(selected).toHaveLength(1);
    expect(selected[0]?.ecommerce).toMatchObject({
      item_list_name: 'Matelas',
      items: [{ item_id: first?.item_id, item_list_name: 'Matelas', index: 0 }],
    });
    // view_item at load, with the product's brand and category.
    await expect
      .poll(async () => (await received(page)).filter((e) => e.event === 'view_item').length)
      .toBe(1);
    const viewed = (await events(page, 'view_item'))[0]?.ecommerce?.items[0];
    expect(viewed).toMatchObject({ item_id: first?.item_id, item_brand: first?.item_brand });
    expect(viewed?.item_category).toBeTruthy();

    // Another size than the default (one with two units left at least), at the price the page
    // shows for it.
    const defaultPrice = await shownPrice(page);
    const sizes = page.locator('fieldset input[type="radio"]');
    await waitForIsland(sizes.first());
    const increase = page.getByRole('button', { name: t('cart.increase') }).first();
    let sizeName = '';
    for (const id of await sizes.evaluateAll((inputs) =>
      inputs.filter((input) => !(input as HTMLInputElement).checked).map((input) => input.id),
    )) {
      await page.locator(`input[id="${id}"]`).check();
      if ((await increase.isEnabled()) && (await shownPrice(page)) !== defaultPrice) {
        sizeName = (await page.locator(`label[for="${id}"]`).textContent())?.trim() ?? '';
        break;
      }
    }
    expect(sizeName).not.toBe('');
    const price = await shownPrice(page);
    await increase.click();
    await page
      .getByRole('button', { name: /^Ajouter au panier/ })
      .first()
      .click();
    await expect.poll(async () => (await events(page, 'add_to_cart')).length).toBe(1);
    const added = (await events(page, 'add_to_cart'))[0]?.ecommerce;
    expect(added?.items[0]).toMatchObject({
      price,
      quantity: 2,
      item_variant: expect.stringContaining(sizeName),
    });
    expect(added?.value).toBeCloseTo(price * 2, 2);

    // The cart: view_cart, then one unit less: remove_from_cart of one.
    await clickInHeader(page.getByRole('banner').getByRole('link', { name: /Panier$/ }));
    const sidebar = page.getByRole('dialog', { name: t('cart.title') });
    await expect(sidebar).toBeVisible();
    await expect.poll(async () => (await events(page, 'view_cart')).length).toBe(1);
    await sidebar
      .getByRole('button', { name: t('cart.decrease') })
      .first()
      .click();
    await expect.poll(async () => (await events(page, 'remove_from_cart')).length).toBe(1);
    expect((await events(page, 'remove_from_cart'))[0]?.ecommerce).toMatchObject({
      value: price,
      items: [{ item_id: first?.item_id, price, quantity: 1 }],
    });

    // Checkout: begin_checkout on the way to the hosted checkout, then purchase once.
    await page.goto('/paiement');
    await containerLoaded(page);
    await page.getByRole('button', { name: t('checkout.asGuest') }).click();
    await page.getByLabel('Adresse e-mail', { exact: true }).fill(uniqueEmail('funnel-guest'));
    await payOnHostedCheckout(page);
    const orderId = new URL(page.url()).searchParams.get('commande');
    await containerLoaded(page);
    expect((await events(page, 'begin_checkout'))[0]?.ecommerce).toMatchObject({
      currency: 'EUR',
      value: price,
      items: [{ item_id: first?.item_id, price, quantity: 1 }],
    });
    await expect.poll(async () => (await events(page, 'purchase')).length).toBe(1);
    const purchase = (await events(page, 'purchase'))[0]?.ecommerce;
    expect(purchase).toMatchObject({
      currency: 'EUR',
      transaction_id: orderId,
      value: price,
      shipping: expect.any(Number),
      tax: expect.any(Number),
      items: [
        {
          item_id: first?.item_id,
          price,
          quantity: 1,
          item_variant: expect.stringContaining(sizeName),
        },
      ],
    });
    expect(purchase?.tax).toBeGreaterThan(0);

    await page.reload();
    await containerLoaded(page);
    expect(await counts(page)).not.toHaveProperty('purchase');
    expect(await events(page, 'purchase')).toHaveLength(1);
  });

  test('on a phone, view_item goes out at load, before the buy box is scrolled to', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(productPath({ id: PRODUCTS.trackingVariant, name: 'x' }));
    await containerLoaded(page);
    await expect.poll(() => counts(page)).toEqual({ 'gtm.js': 1, view_item: 1 });
    // Nothing was scrolled: view_item went out at load, wherever the buy box is.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.screenshot({ path: 'test-results/visual/funnel-view-item-390.png' });
  });

  test('search, add_to_wishlist, sign_up and login', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto('/resultats-de-recherche/matelas');
    await containerLoaded(page);
    await expect.poll(async () => (await events(page, 'search')).length).toBe(1);
    expect((await events(page, 'search'))[0]).toMatchObject({ search_term: 'matelas' });

    await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'x' }));
    await containerLoaded(page);
    const heart = page.locator('[data-product-actions] button[data-wishlist-heart]');
    await expect(heart).toBeVisible();
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await events(page, 'add_to_wishlist')).length).toBe(1);
    expect((await events(page, 'add_to_wishlist'))[0]?.ecommerce?.items[0]).toMatchObject({
      item_id: String(PRODUCTS.trackingNone),
      quantity: 1,
    });

    const email = uniqueEmail('funnel');
    await page.goto('/inscription');
    await waitForHydration(page);
    await containerLoaded(page);
    await submitRegistration(page, email);
    await expect(page).toHaveURL(/mes-informations$/);
    expect(await events(page, 'sign_up')).toMatchObject([{ event: 'sign_up', method: 'email' }]);

    // The account page's own loads (the wishlist) end before the session does: a call still in
    // flight at logout would answer 401.
    await waitForNetworkQuiet(page);
    await page.goto('/deconnexion');
    await page.goto('/connexion');
    await waitForHydration(page);
    await containerLoaded(page);
    await page.getByLabel(t('login.email')).fill(CUSTOMERS.marie.email);
    await page.getByLabel(t('login.password')).fill(CUSTOMERS.marie.password);
    await page.getByRole('button', { name: t('login.submit') }).click();
    await expect(page).toHaveURL(/mes-informations$/, { timeout: 15_000 });
    expect(await events(page, 'login')).toMatchObject([{ event: 'login', method: 'email' }]);
  });
});
