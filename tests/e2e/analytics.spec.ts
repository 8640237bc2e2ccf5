/**
 * spec §7, §9 analytics through the tag manager. The test build sets `GTM_CONTAINER_ID`
 * (GTM-TEST123, scripts/lib/test-env.ts); the container script is answered here by a recorder
 * that does what a container does with the data layer: reads what waits in it, then takes every
 * later push. It proves the container loads after the page under the CSP (no violation), and
 * that each event of spec §9 (user_data, view_item_list, view_item, add_to_cart, view_cart,
 * podcast_play) and the shipping push of spec §7 (add_shipping_info) reach it once per page,
 * with the customer fields when logged in and without them for a visitor. Each test grants
 * consent first (`grantConsent`): without it there is no container (consent.spec.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS } from '../../scripts/sandbox/fixtures.ts';
import {
  grantConsent,
  payOnHostedCheckout,
  submitRegistration,
  uniqueEmail,
  waitForHydration,
  waitForIsland,
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
  const keep = (entry) => gtm.received.push(JSON.parse(JSON.stringify(entry)));
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
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Panier$/ })
    .click();
  await expect(page.getByRole('dialog', { name: t('cart.title') })).toBeVisible();
}

test('a visitor: the container loads after the page; each event once, without customer fields', async ({
  page,
}) => {
  const requested = await recordContainer(page);
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
  await recordContainer(page);
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
  await recordContainer(page);
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
    .toEqual([`user_data:${email}`, `add_shipping_info:${email}`]);
  const shipping = await one(page, 'add_shipping_info');
  expect(shipping).toMatchObject({
    order_id: orderId,
    shipping_address: { city: 'Lyon', postal_code: '69003', country_code: 'FR' },
    ecommerce: {
      currency: 'EUR',
      items: [{ item_id: String(PRODUCTS.trackingNone), quantity: 1 }],
    },
  });

  // Seeing the confirmation again sends no second shipping push for that order.
  await page.reload();
  await containerLoaded(page);
  await expect.poll(() => carriers(page)).toEqual([`user_data:${email}`]);
});
